// `kplay-cli completion bash` (hidden): prints a bash completion script made from kplay-cli's own
// option table, so that the installed completion (share/bash-completion/completions/kplay-cli) never
// drifts from the commands, their flags and the values the flags take (option_values.hpp).
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_values.hpp"

namespace kplay::cli {

namespace {

bool shown(const std::string& group) { return !group.empty(); }  // CLI11 hides the empty group

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words) text += (text.empty() ? "" : " ") + word;
    return text;
}

// The long and short names of an option, as typed: --size, -h.
std::vector<std::string> typed_names(const CLI::Option* option) {
    std::vector<std::string> names;
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
    return names;
}

// One command's (or the top level's) `case` body: the value of the option before the cursor, else its
// flags when the word starts with '-', else the shell's file names (kernel files, images) or the
// commands.
std::string command_case(CLI::App* command, const std::string& words_without_dash) {
    std::string values, flags;
    for (const CLI::Option* option : command->get_options()) {
        if (option->get_positional() || !shown(option->get_group())) continue;
        const std::vector<std::string> names = typed_names(option);
        for (const auto& name : names) flags += (flags.empty() ? "" : " ") + name;
        if (option->get_items_expected_max() == 0) continue;  // a flag: takes no value
        const OptionValues kind = option_values(option);
        std::string reply = "return 0";  // a free value: the shell's default (file names)
        if (kind.kind == ValueKind::choices) reply = "COMPREPLY=($(compgen -W \"" + joined(kind.choices) + "\" -- \"$cur\")); return 0";
        if (kind.kind == ValueKind::device) reply = "COMPREPLY=($(compgen -W \"$(_kplay_cli_devices)\" -- \"$cur\")); return 0";
        std::string patterns;
        for (const auto& name : names) patterns += (patterns.empty() ? "" : "|") + name;
        values += "        " + patterns + ") " + reply + ";;\n";
    }
    std::string body = "      case \"$prev\" in\n" + values + "      esac\n";
    body += "      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"" + flags + "\" -- \"$cur\")); return 0; fi\n";
    if (!words_without_dash.empty()) body += "      COMPREPLY=($(compgen -W \"" + words_without_dash + "\" -- \"$cur\"))\n";
    return body;
}

std::string bash_script(CLI::App& app) {
    const std::vector<CLI::App*> commands = app.get_subcommands([](CLI::App* sub) { return shown(sub->get_group()); });
    std::vector<std::string> names;
    for (CLI::App* command : commands) names.push_back(command->get_name());
    std::string script = R"(# bash completion for kplay-cli, made by `kplay-cli completion bash` from its own option table.

# The devices --device takes: cpu (the emulated CPU device) and each GPU the NVIDIA driver lists.
_kplay_cli_devices() {
  local list=cpu n=0 gpu
  for gpu in /proc/driver/nvidia/gpus/*; do [ -e "$gpu" ] && list+=" $n" && n=$((n + 1)); done
  echo "$list"
}

_kplay_cli() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command="" i
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      )" + [&] {
        std::string patterns;
        for (const auto& name : names) patterns += (patterns.empty() ? "" : "|") + name;
        return patterns;
    }() + R"() command=${COMP_WORDS[i]}; break;;
    esac
  done
  case $command in
)";
    script += "    \"\")\n" + command_case(&app, joined(names)) + "      ;;\n";
    for (CLI::App* command : commands) script += "    " + command->get_name() + ")\n" + command_case(command, "") + "      ;;\n";
    script += R"(  esac
}
complete -o bashdefault -o default -F _kplay_cli kplay-cli
)";
    return script;
}

}  // namespace

std::function<int()> add_completion_command(CLI::App& app) {
    auto* command = app.add_subcommand("completion", "Print the bash completion script for kplay-cli (kplay-cli completion bash)");
    auto shell = std::make_shared<std::string>();
    one_of(command->add_option("SHELL", *shell, "The shell")->required(), {"bash"});
    return [&app, shell] {  // the option writes into *shell when parsing: it must outlive this function
        std::fputs(bash_script(app).c_str(), stdout);
        return kSuccess;
    };
}

}  // namespace kplay::cli
