// A minimal ELF64 reader: section headers -> .dynsym + its string table, and .init_array's size.
#include "emu/shared_object_check.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "base/cache_dir.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "base/error.hpp"

namespace kplay {

namespace {

template <class T>
bool read_at(const std::string& bytes, size_t offset, T& out) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, bytes.data() + offset, sizeof(T));
    return true;
}

}  // namespace

SharedObjectSymbols read_shared_object_symbols(const std::filesystem::path& path) {
    std::string bytes;
    if (!read_whole_file(path, bytes)) throw InputError("Cannot read the emulated kernel " + path.string() + ".");
    Elf64_Ehdr header;
    if (!read_at(bytes, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_type != ET_DYN)
        throw InputError(path.string() + " is not a 64-bit ELF shared object.");
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    for (size_t i = 0; i < sections.size(); ++i)
        if (!read_at(bytes, header.e_shoff + i * sizeof(Elf64_Shdr), sections[i]))
            throw InputError(path.string() + " has a truncated section table.");
    SharedObjectSymbols symbols;
    for (const Elf64_Shdr& section : sections) {
        if ((section.sh_type == SHT_INIT_ARRAY || section.sh_type == SHT_PREINIT_ARRAY) && section.sh_size > 0)
            symbols.has_constructors = true;
        if (section.sh_type != SHT_DYNSYM || section.sh_link >= sections.size()) continue;
        const Elf64_Shdr& strings = sections[section.sh_link];
        for (size_t offset = sizeof(Elf64_Sym); offset + sizeof(Elf64_Sym) <= section.sh_size; offset += sizeof(Elf64_Sym)) {
            Elf64_Sym symbol;
            if (!read_at(bytes, section.sh_offset + offset, symbol)) break;
            if (symbol.st_shndx != SHN_UNDEF || symbol.st_name == 0 || symbol.st_name >= strings.sh_size) continue;
            const char* name = bytes.data() + strings.sh_offset + symbol.st_name;
            symbols.undefined.emplace_back(name, strnlen(name, strings.sh_size - symbol.st_name));
        }
    }
    return symbols;
}

bool symbol_allowed_for_kernels(const std::string& name) {
    // Memory primitives the compiler itself emits, TLS access, and libm functions without side effects.
    static const std::set<std::string> allowed = [] {
        std::set<std::string> names = {"__tls_get_addr", "memcpy", "memmove", "memset", "memcmp", "sincos", "sincosf"};
        for (const char* base : {"sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
                                 "acos", "atan", "sinh", "cosh", "tanh", "erf", "fabs", "floor", "ceil", "round", "trunc", "rint",
                                 "pow", "atan2", "fmod", "fmin", "fmax", "hypot", "copysign", "fma"}) {
            names.insert(base);
            names.insert(std::string(base) + "f");
        }
        return names;
    }();
    return allowed.count(name) > 0;
}

void check_shared_object_is_confined(const std::filesystem::path& path, const std::string& source_name, bool sanitized) {
    const SharedObjectSymbols symbols = read_shared_object_symbols(path);
    std::vector<std::string> refused;
    for (const std::string& name : symbols.undefined)
        if (!symbol_allowed_for_kernels(name) && !(sanitized && is_sanitizer_symbol(name))) refused.push_back("'" + name + "'");
    std::sort(refused.begin(), refused.end());
    if (!refused.empty()) {
        std::string names;
        for (const auto& name : refused) names += (names.empty() ? "" : ", ") + name;
        throw InputError(source_name + ": refused to load the emulated kernel: it calls " + names +
                         ", outside what an emulated kernel may use (memory, math and kplay's own prelude). "
                         "A kernel computes into its buffers; it cannot reach the C library or the system.");
    }
    if (symbols.has_constructors && !sanitized)  // instrumented objects register their globals with ASan at load
        throw InputError(source_name + ": refused to load the emulated kernel: it has global objects with constructors, which would "
                                       "run before the sandbox; initialise them with constants instead.");
}

}  // namespace kplay
