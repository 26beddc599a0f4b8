// A minimal ELF64 reader: section headers -> .dynsym + its string table, and .init_array's size.
#include "emu/shared_object_check.hpp"

#include <elf.h>

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
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

namespace {

// What the dynamic loader runs by itself: DT_INIT and DT_FINI (a function named _init or _fini is
// enough for the linker to set them) and the init, preinit and fini arrays.
bool dynamic_section_runs_code(const std::string& bytes, const Elf64_Shdr& section) {
    for (size_t offset = 0; offset + sizeof(Elf64_Dyn) <= section.sh_size; offset += sizeof(Elf64_Dyn)) {
        Elf64_Dyn entry;
        if (!read_at(bytes, section.sh_offset + offset, entry) || entry.d_tag == DT_NULL) break;
        if (entry.d_tag == DT_INIT || entry.d_tag == DT_FINI) return true;
        if ((entry.d_tag == DT_INIT_ARRAYSZ || entry.d_tag == DT_FINI_ARRAYSZ || entry.d_tag == DT_PREINIT_ARRAYSZ) && entry.d_un.d_val > 0)
            return true;
    }
    return false;
}

// An IRELATIVE relocation makes the loader call an ifunc resolver while it relocates.
bool relocations_call_resolvers(const std::string& bytes, const Elf64_Shdr& section, unsigned machine) {
    const unsigned irelative = machine == EM_AARCH64 ? 1032u : 37u;  // R_AARCH64_IRELATIVE, R_X86_64_IRELATIVE
    for (size_t offset = 0; offset + sizeof(Elf64_Rela) <= section.sh_size; offset += sizeof(Elf64_Rela)) {
        Elf64_Rela relocation;
        if (!read_at(bytes, section.sh_offset + offset, relocation)) break;
        if (ELF64_R_TYPE(relocation.r_info) == irelative) return true;
    }
    return false;
}

void read_symbols(const std::string& bytes, const Elf64_Shdr& section, const Elf64_Shdr& strings, SharedObjectSymbols& symbols) {
    for (size_t offset = sizeof(Elf64_Sym); offset + sizeof(Elf64_Sym) <= section.sh_size; offset += sizeof(Elf64_Sym)) {
        Elf64_Sym symbol;
        if (!read_at(bytes, section.sh_offset + offset, symbol)) break;
        if (ELF64_ST_TYPE(symbol.st_info) == STT_GNU_IFUNC) symbols.has_constructors = true;
        if (section.sh_type != SHT_DYNSYM || symbol.st_shndx != SHN_UNDEF || symbol.st_name == 0 || symbol.st_name >= strings.sh_size)
            continue;
        const char* name = bytes.data() + strings.sh_offset + symbol.st_name;
        symbols.undefined.emplace_back(name, strnlen(name, strings.sh_size - symbol.st_name));
    }
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
        const bool code_array = section.sh_type == SHT_INIT_ARRAY || section.sh_type == SHT_PREINIT_ARRAY || section.sh_type == SHT_FINI_ARRAY;
        if ((code_array && section.sh_size > 0) || (section.sh_type == SHT_DYNAMIC && dynamic_section_runs_code(bytes, section)) ||
            (section.sh_type == SHT_RELA && relocations_call_resolvers(bytes, section, header.e_machine)))
            symbols.has_constructors = true;
        if ((section.sh_type == SHT_DYNSYM || section.sh_type == SHT_SYMTAB) && section.sh_link < sections.size())
            read_symbols(bytes, section, sections[section.sh_link], symbols);
    }
    return symbols;
}

std::vector<SharedArraySymbol> read_shared_arrays(const std::filesystem::path& path) {
    std::string bytes;
    if (!read_whole_file(path, bytes)) throw InputError("Cannot read the emulated kernel " + path.string() + ".");
    Elf64_Ehdr header;
    if (!read_at(bytes, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) throw InputError(path.string() + " is not an ELF file.");
    std::vector<SharedArraySymbol> arrays;
    for (size_t i = 0; i < header.e_shnum; ++i) {
        Elf64_Shdr section, strings;
        if (!read_at(bytes, header.e_shoff + i * sizeof(Elf64_Shdr), section) || section.sh_type != SHT_SYMTAB) continue;
        if (!read_at(bytes, header.e_shoff + section.sh_link * sizeof(Elf64_Shdr), strings)) continue;
        for (size_t offset = sizeof(Elf64_Sym); offset + sizeof(Elf64_Sym) <= section.sh_size; offset += sizeof(Elf64_Sym)) {
            Elf64_Sym symbol;
            if (!read_at(bytes, section.sh_offset + offset, symbol) || ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_size == 0 ||
                symbol.st_name >= strings.sh_size)
                continue;
            const char* raw = bytes.data() + strings.sh_offset + symbol.st_name;
            std::string name(raw, strnlen(raw, strings.sh_size - symbol.st_name));
            int status = 0;
            std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
            if (status == 0 && demangled) name = demangled.get();
            if (name.rfind("kplay_emu::", 0) == 0) continue;  // the prelude's own (the running thread)
            // The host compiler's bookkeeping for a __shared__ object of a class type (the flag that says
            // its empty constructor ran on this worker): no CUDA thread touches it, and it is no array.
            if (name.rfind("guard variable for ", 0) == 0 || name.rfind("TLS ", 0) == 0 || name.rfind("_ZGV", 0) == 0 || name.rfind("_ZTH", 0) == 0)
                continue;
            // "reduce(float const*, float*, int)::partial" -> "partial"
            if (const size_t colon = name.rfind("::"); colon != std::string::npos) name = name.substr(colon + 2);
            arrays.push_back({name, symbol.st_value, symbol.st_size});
        }
    }
    return arrays;
}

namespace {

// C functions a hosted reference may reach: memory, the few pure helpers of <cstdlib> and <cstring>
// that algorithms use, every function of libm, and what the compiler and the C++ runtime emit on their
// own (stack protection, errno for math, abort for assert and std::terminate, unwinding).
bool is_reference_library_name(const std::string& name) {
    static const std::set<std::string> names = [] {
        std::set<std::string> all = {"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "memcpy", "memmove",
                                     "memset", "memcmp", "memchr", "strlen", "strcmp", "strncmp", "qsort", "bsearch", "abs", "labs",
                                     "llabs", "abort", "__errno_location", "__assert_fail", "__stack_chk_fail", "__gxx_personality_v0",
                                     "_Unwind_Resume", "_ZSt9terminatev", "_ZSt7nothrow", "__libc_single_threaded",
                                     // weak references every hosted object may carry
                                     "__cxa_finalize", "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable", "__gmon_start__"};
        for (const char* base :
             {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp",
              "exp2", "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp", "hypot", "ilogb", "ldexp", "lgamma",
              "lgamma_r", "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf", "nan", "nearbyint",
              "nextafter", "nexttoward", "pow", "remainder", "remquo", "rint", "round", "scalbln", "scalbn", "sin", "sincos", "sinh",
              "sqrt", "tan", "tanh", "tgamma", "trunc", "j0", "j1", "jn", "y0", "y1", "yn", "significand", "cabs", "cacos", "cacosh",
              "carg", "casin", "casinh", "catan", "catanh", "ccos", "ccosh", "cexp", "cimag", "clog", "conj", "cpow", "cproj", "creal",
              "csin", "csinh", "csqrt", "ctan", "ctanh", "__fpclassify", "__signbit", "__isnan", "__isinf", "__finite", "__mulsc3",
              "__muldc3", "__mulxc3", "__divsc3", "__divdc3", "__divxc3"})
            for (const char* suffix : {"", "f", "l"}) all.insert(std::string(base) + suffix);
        return all;
    }();
    return names.count(name) > 0;
}

}  // namespace

bool symbol_allowed_for_kernels(const std::string& name) {
    // Memory primitives the compiler itself emits, TLS access, and libm functions without side effects.
    static const std::set<std::string> allowed = [] {
        // lgamma_r, not lgamma: lgamma writes the global signgam.
        std::set<std::string> names = {"__tls_get_addr", "memcpy", "memmove", "memset", "memcmp", "sincos", "sincosf", "lgamma_r", "lgammaf_r"};
        for (const char* base : {"sqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "logb", "ilogb", "sin", "cos",
                                 "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "tgamma",
                                 "j0", "j1", "jn", "y0", "y1", "yn", "fabs", "floor", "ceil", "round", "trunc", "rint", "nearbyint", "lround",
                                 "llround", "lrint", "llrint", "pow", "atan2", "fmod", "remainder", "remquo", "fmin", "fmax", "fdim", "hypot",
                                 "copysign", "nextafter", "fma", "frexp", "ldexp", "modf", "scalbn", "scalbln"}) {
            names.insert(base);
            names.insert(std::string(base) + "f");
        }
        return names;
    }();
    return allowed.count(name) > 0;
}

namespace {

// A symbol as the user wrote it: std::ostream::operator<<(int), not _ZNSolsEi.
std::string readable(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && demangled ? demangled.get() : symbol;
}

std::string quoted_list(std::vector<std::string> names) {
    for (auto& name : names) name = readable(name);
    std::sort(names.begin(), names.end());
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
}

}  // namespace

void check_shared_object_is_confined(const std::filesystem::path& path, const std::string& source_name, bool sanitized) {
    const SharedObjectSymbols symbols = read_shared_object_symbols(path);
    std::vector<std::string> refused;
    for (const std::string& name : symbols.undefined)
        if (!symbol_allowed_for_kernels(name) && !(sanitized && is_sanitizer_symbol(name))) refused.push_back(name);
    if (!refused.empty())
        throw InputError(source_name + ": refused to load the emulated kernel: it calls " + quoted_list(refused) +
                         ", outside what an emulated kernel may use (memory, math and kplay's own prelude). "
                         "A kernel computes into its buffers; it cannot reach the C library or the system.");
    if (symbols.has_constructors && !sanitized)  // instrumented objects register their globals with ASan at load
        throw InputError(source_name + ": refused to load the emulated kernel: it has code that runs when it is loaded or unloaded "
                                       "(global objects with constructors, a function named _init or _fini, an ifunc resolver), "
                                       "which would run outside the sandbox; initialise globals with constants instead.");
}

bool symbol_allowed_for_references(const std::string& name) {
    if (symbol_allowed_for_kernels(name) || is_reference_library_name(name)) return true;
    static const std::regex patterns(
        // operator new and delete, in every form
        "_Zn[wa].*|_Zd[la].*"
        // the C++ ABI's exception, guard and pure-virtual helpers (not __cxa_atexit: destructors at exit)
        "|__cxa_(?!atexit$|thread_atexit$|thread_atexit_impl$).*"
        // std::__throw_length_error and its kin, which containers call
        "|_ZSt\\d+__throw_\\w*"
        // std::map and std::set, std::list, std::unordered_map, std::string, std::hash
        "|_ZSt(18|28|29)_Rb_tree_.*|_ZNSt8__detail15_List_node_base.*|_ZNK?St8__detail20_Prime_rehash_policy.*"
        "|_ZNK?St7__cxx1112basic_string.*|_ZSt11_Hash_bytes.*"
        // the C++ ABI's typeinfo classes, and the typeinfo of fundamental types (throw 1; throw "text";)
        "|_ZT[IV]N10__cxxabiv1.*|_ZTI[PK]*[a-z]|_ZTI[PK]*D[nsi]");
    if (std::regex_match(name, patterns)) return true;
    // The standard exceptions: their typeinfo, vtables and members (constructors, what()).
    static const std::regex exception("_Z(T[ISV]|NK?)St(\\d+)(\\w+)");
    static const std::set<std::string> exceptions = {"exception", "bad_alloc", "bad_array_new_length", "bad_cast", "bad_typeid",
        "bad_function_call", "bad_optional_access", "bad_variant_access", "bad_weak_ptr", "logic_error", "domain_error",
        "invalid_argument", "length_error", "out_of_range", "runtime_error", "range_error", "overflow_error", "underflow_error",
        "nested_exception"};
    std::smatch match;
    if (!std::regex_match(name, match, exception)) return false;
    const size_t length = std::stoul(match[2].str());
    return match[3].length() >= static_cast<long>(length) && exceptions.count(match[3].str().substr(0, length)) > 0;
}

namespace {

// What <iostream> leaves in an object: up to libstdc++ 12 the ios_base::Init object every including file
// constructs at load; from 13 on (that object moved into the library) only the streams it names.
bool uses_standard_streams(const std::string& name) {
    static const std::regex streams("_ZNSt8ios_base4Init.*|_ZSt(4cout|4cerr|4clog|3cin|5wcout|5wcerr|5wclog|4wcin)");
    return std::regex_match(name, streams);
}

}  // namespace

void check_host_reference_is_confined(const std::filesystem::path& path, const std::string& source_name) {
    const SharedObjectSymbols symbols = read_shared_object_symbols(path);
    std::vector<std::string> refused;
    bool exit_destructors = false, streams = false;
    for (const std::string& name : symbols.undefined) {
        if (name == "__cxa_atexit" || name == "__cxa_thread_atexit" || name == "__cxa_thread_atexit_impl") exit_destructors = true;
        else if (!symbol_allowed_for_references(name)) refused.push_back(name);
        if (uses_standard_streams(name)) streams = true;
    }
    const std::string refusal = source_name + ": refused to load the host reference: ";
    if (streams)
        throw InputError(refusal + "it includes <iostream>, whose streams a reference cannot use: it cannot print (its "
                                   "process may not write anywhere). Remove the include and the printing.");
    if (!refused.empty())
        throw InputError(refusal + "it calls " + quoted_list(refused) +
                         ", outside what a reference may use (memory, math and the C++ standard library's containers and "
                         "algorithms). A reference computes into its buffers; it cannot reach the system.");
    if (symbols.has_constructors || exit_destructors)
        throw InputError(refusal + "it has global or static objects with constructors or destructors (or a function named _init "
                                   "or _fini, or an ifunc resolver), which would run outside the sandboxed call; make such "
                                   "objects locals of the reference function, without `static`.");
}

}  // namespace kplay
