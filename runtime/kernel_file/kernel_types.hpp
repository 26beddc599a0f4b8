// A kernel parameter's type as the compiler sees it, not as it is spelled: aliases resolved, the
// fixed-width names as the built-in types they stand for, and a template kernel's parameters as its
// instance has them (read from the instance's mangled name).
//
// The binding uses the instance's types to tell a float parameter from an integer one
// (`a_kernel<float,256>(const T* x, T f)`: f is a float), and the reference check compares canonical
// types, so `typedef float FP; ... FP* x` in a kernel and `float* x` in its reference are the same.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// Namespace-scope `typedef T NAME;` and `using NAME = T;` of a file (comments and strings aside), NAME -> T.
using TypeAliases = std::map<std::string, std::string>;
TypeAliases type_aliases(std::string_view source);

// `type` with cv-qualifiers and restrict dropped and spaces removed, aliases replaced (repeatedly), and a
// fixed-width or short name as the built-in it stands for: "const FP *__restrict__" -> "float*" for
// `typedef float FP`, "uint32_t" -> "unsigned", "unsigned int" -> "unsigned".
std::string canonical_type(const std::string& type, const TypeAliases& aliases = {});

// Whether a canonical type's base (before any `*` or `&`) is a built-in arithmetic type or void: the
// only ones whose names can be compared across a kernel and its reference without compiling.
bool is_builtin_type(const std::string& canonical);

// The parameter types of a kernel instance from its mangled (lowered) name, as the demangler writes
// them ("float const*", "float", "int"); nullopt for an extern "C" name or one that does not demangle.
std::optional<std::vector<std::string>> instantiated_parameter_types(const std::string& lowered_name);

}  // namespace kplay
