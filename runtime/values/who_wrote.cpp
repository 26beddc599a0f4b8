// The words of "who wrote this element", and the element syntax of --who-wrote.
#include "values/who_wrote.hpp"

#include <cctype>
#include <cstdlib>

namespace kplay {

namespace {

std::string dim(const Dim3& d) { return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")"; }

}  // namespace

std::string describe_writer(const ElementWriter& writer) {
    std::string text = writer.element.buffer + "[" + std::to_string(writer.element.index) + "]: ";
    if (!writer.written) return text + "no thread of the launch wrote it";
    text += std::string(writer.many ? "written by more than one thread, last by thread " : writer.atomic ? "updated atomically by thread " : "written by thread ") +
            dim(writer.thread) + " of block " + dim(writer.block);
    if (writer.line > 0) text += " at " + writer.file + ":" + std::to_string(writer.line);
    if (!writer.index_story.empty()) text += "; " + writer.index_story;
    return text;
}

ElementRef parse_element_ref(const std::string& text) {
    ElementRef ref;
    const size_t open = text.find('[');
    if (open == std::string::npos || open == 0 || text.empty() || text.back() != ']') return ref;
    const std::string number = text.substr(open + 1, text.size() - open - 2);
    if (number.empty()) return ref;
    for (char c : number)
        if (!std::isdigit(static_cast<unsigned char>(c))) return ref;
    ref.buffer = text.substr(0, open);
    ref.index = std::strtoull(number.c_str(), nullptr, 10);
    return ref;
}

}  // namespace kplay
