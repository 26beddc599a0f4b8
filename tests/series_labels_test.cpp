// The 1D output view's axis labels: tick steps, indices in full, value labels, decades.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "series_labels.hpp"

using namespace kplay::window;

namespace {

std::string index_text(int64_t value, size_t size = 32) {
    char out[32];
    format_index(out, size, value);
    return out;
}

std::string value_text(double value, const ValueFormat& format) {
    char out[64];
    format_value(out, sizeof out, value, format);
    return out;
}

std::string decade_text(int decade) {
    char out[32];
    format_decade(out, sizeof out, decade);
    return out;
}

}  // namespace

TEST(SeriesLabels, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
    EXPECT_DOUBLE_EQ(nice_step(0.7), 1);
    EXPECT_DOUBLE_EQ(nice_step(1), 1);
    EXPECT_DOUBLE_EQ(nice_step(1.5), 2);
    EXPECT_DOUBLE_EQ(nice_step(3), 5);
    EXPECT_DOUBLE_EQ(nice_step(7), 10);
    EXPECT_DOUBLE_EQ(nice_step(0.03), 0.05);
    EXPECT_DOUBLE_EQ(nice_step(0), 1);
    EXPECT_DOUBLE_EQ(nice_step(-4), 1);
    EXPECT_DOUBLE_EQ(nice_step(NAN), 1);
    EXPECT_DOUBLE_EQ(nice_step(INFINITY), 1);
}

TEST(SeriesLabels, IndicesAreWrittenInFullWithThousandsSeparators) {
    EXPECT_EQ(index_text(0), "0");
    EXPECT_EQ(index_text(999), "999");
    EXPECT_EQ(index_text(1000), "1,000");
    EXPECT_EQ(index_text(1234567), "1,234,567");
    EXPECT_EQ(index_text(-1234), "-1,234");
    EXPECT_EQ(index_text(1234567, 4), "1,2");  // cut to the buffer, never past it
}

TEST(SeriesLabels, ValueLabelsAgreeAlongAnAxis) {
    const ValueFormat fixed = value_format(0, 1, 0.2);
    EXPECT_FALSE(fixed.scientific);
    EXPECT_EQ(fixed.decimals, 1);
    EXPECT_EQ(value_text(0.4, fixed), "0.4");
    EXPECT_EQ(value_text(1, fixed), "1.0");
    EXPECT_EQ(value_text(1e-9, fixed), "0");  // rounding noise next to zero is zero

    const ValueFormat whole = value_format(-300, 300, 100);
    EXPECT_EQ(whole.decimals, 0);
    EXPECT_EQ(value_text(-200, whole), "-200");

    const ValueFormat large = value_format(0, 2e6, 5e5);
    EXPECT_TRUE(large.scientific);
    EXPECT_EQ(value_text(1.5e6, large), "1.5e6");
    EXPECT_EQ(value_text(5e5, large), "5e5");

    const ValueFormat tiny = value_format(0, 5e-4, 1e-4);
    EXPECT_TRUE(tiny.scientific);
    EXPECT_EQ(value_text(3e-4, tiny), "3e-4");
}

TEST(SeriesLabels, DecadesReadAsNumbersNearOne) {
    EXPECT_EQ(decade_text(-6), "1e-6");
    EXPECT_EQ(decade_text(-3), "1e-3");
    EXPECT_EQ(decade_text(-2), "0.01");
    EXPECT_EQ(decade_text(-1), "0.1");
    EXPECT_EQ(decade_text(0), "1");
    EXPECT_EQ(decade_text(3), "1000");
    EXPECT_EQ(decade_text(4), "1e4");
}
