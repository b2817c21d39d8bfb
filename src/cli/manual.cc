// `pgconflint man` and `pgconflint completions bash|zsh|fish`: the manual
// page and the shell completions, written from the same CLI11 definitions
// that parse the command line and print --help, so that they cannot drift
// from it (tests/integration/test_cli_docs.py compares them).
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/base/strings.h"
#include "core/rules/profile.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint::cli {
namespace {

// One option as the documents need it.
struct OptionDoc {
  std::vector<std::string> names;  // "-h", "--help"; the positional's name alone
  std::string value;               // "TEXT", "INT" (empty for a flag)
  std::vector<std::string> choices;  // from {a,b,c} in the type name
  std::string description, default_value;
  bool positional = false;
};

struct CommandDoc {
  std::string name, description;
  std::vector<OptionDoc> options;
};

// "TEXT:{table,markdown}" -> "TEXT" and the choices.
void ReadType(const std::string& type, OptionDoc* o) {
  const size_t colon = type.find(':');
  o->value = type.substr(0, colon);
  const size_t open = type.find('{'), close = type.find('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return;
  std::stringstream items(type.substr(open + 1, close - open - 1));
  for (std::string item; std::getline(items, item, ',');) o->choices.push_back(item);
}

// The options of `app` and of its option groups (CLI11 keeps a group as an
// unnamed sub-app), in the order --help lists them.
void CollectOptions(const CLI::App& app, std::vector<OptionDoc>* out, bool group = false) {
  for (const CLI::Option* opt : app.get_options()) {
    // A group holds a copy of its parent's help flag, which --help leaves out too.
    if (group && (opt == app.get_help_ptr() || opt == app.get_help_all_ptr())) continue;
    OptionDoc o;
    o.positional = !opt->nonpositional();
    if (o.positional) {
      o.names.push_back(opt->get_name(true));
    } else {
      for (const std::string& s : opt->get_snames()) o.names.push_back("-" + s);
      for (const std::string& l : opt->get_lnames()) o.names.push_back("--" + l);
    }
    if (opt->get_items_expected_max() != 0) ReadType(opt->get_type_name(), &o);
    // A profile fact's fixed values (--workload oltp ...), checked by the core rather than CLI11.
    if (o.choices.empty() && !o.positional && opt->get_lnames().size() == 1)
      o.choices = ProfileFactChoices(opt->get_lnames()[0]);
    o.description = opt->get_description();
    o.default_value = opt->get_default_str();
    out->push_back(std::move(o));
  }
  for (const CLI::App* group : app.get_subcommands([](const CLI::App* a) { return a->get_name().empty(); }))
    CollectOptions(*group, out, true);
}

// The program as main() sets it up, with every subcommand registered in full
// and described as for --help.
const CLI::App& Program(const std::vector<Command>** commands) {
  static CLI::App& app = *new CLI::App;
  static std::vector<Command>& keep = *new std::vector<Command>;  // the run closures own the options' storage
  if (keep.empty()) {
    ConfigureProgram(&app, PGCONFLINT_VERSION);
    for (const Subcommand& s : Subcommands()) keep.push_back(s.add(&app, true));
    for (const Command& c : keep) DescribeForHelp(c);
  }
  if (commands) *commands = &keep;
  return app;
}

// The options of the program itself (--help, --version).
std::vector<OptionDoc> ProgramOptions() {
  std::vector<OptionDoc> out;
  CollectOptions(Program(nullptr), &out);
  return out;
}

// Every subcommand with its options.
std::vector<CommandDoc> Commands() {
  const std::vector<Command>* keep = nullptr;
  Program(&keep);
  std::vector<CommandDoc> out;
  for (const Command& c : *keep) {
    CommandDoc d{c.app->get_name(), c.app->get_description(), {}};
    CollectOptions(*c.app, &d.options);
    out.push_back(std::move(d));
  }
  return out;
}

// Text for roff: backslashes doubled, hyphens as \-, a leading dot or quote escaped.
std::string Roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

// One .TP entry per option.
void ManOptions(const std::vector<OptionDoc>& options, std::ostream& o) {
  for (const OptionDoc& opt : options) {
    o << ".TP\n";
    std::string head = CommaList(
        opt.names, [&](const std::string& n) { return (opt.positional ? "\\fI" : "\\fB") + Roff(n) + "\\fR"; });
    if (!opt.value.empty() && !opt.positional) head += " \\fI" + Roff(opt.value) + "\\fR";
    o << head << "\n" << Roff(opt.description);
    const std::string list = CommaList(opt.choices);
    if (!list.empty() && opt.description.find(list) == std::string::npos) o << " (one of: " << Roff(list) << ")";
    if (!opt.default_value.empty()) o << " [default: " << Roff(opt.default_value) << "]";
    o << "\n";
  }
}

std::string ManPage() {
  std::vector<CommandDoc> commands = Commands();
  const std::string about = ProgramDescription();
  std::ostringstream o;
  o << ".TH PGCONFLINT 1 \"\" \"pgconflint " << PGCONFLINT_VERSION << "\" \"User Commands\"\n"
    << ".SH NAME\npgconflint \\- " << Roff(about.substr(about.find(':') == std::string::npos ? 0 : about.find(':') + 2))
    << "\n.SH SYNOPSIS\n.B pgconflint\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n"
    << ".br\n.B pgconflint\n\\fICOMMAND\\fR \\fB\\-\\-help\\fR\n"
    << ".br\n.B pgconflint\n[\\fIOPTIONS\\fR]\n.SH OPTIONS\n";
  ManOptions(ProgramOptions(), o);
  o << ".SH COMMANDS\n";
  for (const CommandDoc& c : commands) o << ".TP\n.B " << Roff(c.name) << "\n" << Roff(c.description) << "\n";
  for (const CommandDoc& c : commands) {
    o << ".SH \"" << Roff("pgconflint " + c.name) << "\"\n" << Roff(c.description) << "\n";
    ManOptions(c.options, o);
  }
  o << ".SH \"EXIT STATUS\"\n.TP\n0\nNo finding at or above \\fB\\-\\-fail\\-on\\fR.\n.TP\n1\nFindings at or above "
       "\\fB\\-\\-fail\\-on\\fR.\n.TP\n2\nA usage or configuration error.\n.TP\n3\nAn I/O or internal error, or a "
       "server that cannot be reached.\n"
    << ".SH \"SEE ALSO\"\n\\fBpostgres\\fR(1), \\fBpgconflint explain\\fR \\fIRULE\\fR, the README of the "
       "pgconflint sources.\n";
  return o.str();
}

// The long and short names of options, one string.
std::string Flags(const std::vector<OptionDoc>& options) {
  std::string out;
  for (const OptionDoc& o : options)
    if (!o.positional)
      for (const std::string& n : o.names) out += (out.empty() ? "" : " ") + n;
  return out;
}

std::string Bash() {
  std::vector<CommandDoc> commands = Commands();
  std::ostringstream o;
  std::string names;
  for (const CommandDoc& c : commands) names += (names.empty() ? "" : " ") + c.name;
  o << "# bash completion for pgconflint (written by `pgconflint completions bash`)\n"
    << "_pgconflint() {\n"
    << "  local cur prev cmd i\n"
    << "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
    << "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
    << "  cmd=\"\"\n"
    << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
    << "    case \"${COMP_WORDS[i]}\" in -*) ;; *) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n"
    << "  done\n"
    << "  if [ -z \"$cmd\" ]; then\n"
    << "    COMPREPLY=($(compgen -W \"" << names << " " << Flags(ProgramOptions()) << "\" -- \"$cur\"))\n"
    << "    return\n"
    << "  fi\n"
    << "  case \"$cmd\" in\n";
  for (const CommandDoc& c : commands) {
    o << "    " << c.name << ")\n      case \"$prev\" in\n";
    for (const OptionDoc& opt : c.options) {
      if (opt.positional || opt.choices.empty()) continue;
      std::string pattern, words;
      for (const std::string& n : opt.names) pattern += (pattern.empty() ? "" : "|") + n;
      for (const std::string& ch : opt.choices) words += (words.empty() ? "" : " ") + ch;
      o << "        " << pattern << ") COMPREPLY=($(compgen -W \"" << words << "\" -- \"$cur\")); return ;;\n";
    }
    o << "      esac\n"
      << "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"" << Flags(c.options) << "\" -- \"$cur\"));\n"
      << "      else COMPREPLY=($(compgen -f -- \"$cur\")); fi ;;\n";
  }
  o << "  esac\n}\ncomplete -o filenames -F _pgconflint pgconflint\n";
  return o.str();
}

// A description for a single-quoted shell word: ' ends it, so it is written '\''.
std::string ShellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string Zsh() {
  std::vector<CommandDoc> commands = Commands();
  std::ostringstream o;
  o << "#compdef pgconflint\n# zsh completion for pgconflint (written by `pgconflint completions zsh`)\n"
    << "_pgconflint() {\n  local -a commands\n  commands=(\n";
  for (const CommandDoc& c : commands) {
    std::string desc = c.description;
    for (char& ch : desc)
      if (ch == ':') ch = ' ';
    o << "    " << ShellQuoted(c.name + ":" + desc) << "\n";
  }
  o << "  )\n  local -a options\n  options=(\n";
  for (const OptionDoc& opt : ProgramOptions())
    for (const std::string& n : opt.names) {
      std::string desc = opt.description.substr(0, opt.description.find('\n'));
      for (char& ch : desc)
        if (ch == ':') ch = ' ';
      o << "    " << ShellQuoted(n + ":" + desc) << "\n";
    }
  o << "  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands -- options\n    return\n  fi\n"
    << "  local cmd=${words[2]}\n  case $cmd in\n";
  for (const CommandDoc& c : commands) {
    o << "    " << c.name << ")\n      _arguments";
    for (const OptionDoc& opt : c.options) {
      if (opt.positional) continue;
      std::string desc = opt.description.substr(0, opt.description.find('\n'));
      for (char& ch : desc)
        if (ch == '[' || ch == ']' || ch == ':') ch = ' ';
      std::string action = opt.value.empty() ? "" : ":value:";
      if (!opt.choices.empty()) {
        action = ":value:(";
        for (size_t i = 0; i < opt.choices.size(); ++i) action += (i ? " " : "") + opt.choices[i];
        action += ")";
      } else if (!opt.value.empty()) {
        action = ":value:_files";
      }
      for (const std::string& n : opt.names) o << " \\\n        " << ShellQuoted(n + "[" + desc + "]" + action);
    }
    o << " \\\n        '*:file:_files' ;;\n";
  }
  o << "  esac\n}\n_pgconflint \"$@\"\n";
  return o.str();
}

std::string Fish() {
  std::vector<CommandDoc> commands = Commands();
  std::ostringstream o;
  o << "# fish completion for pgconflint (written by `pgconflint completions fish`)\n";
  std::string names;
  for (const CommandDoc& c : commands) names += (names.empty() ? "" : " ") + c.name;
  for (const CommandDoc& c : commands)
    o << "complete -c pgconflint -f -n 'not __fish_seen_subcommand_from " << names << "' -a " << c.name << " -d "
      << ShellQuoted(c.description) << "\n";
  // One line per option, offered when `condition` holds.
  auto options = [&](const std::vector<OptionDoc>& list, const std::string& condition) {
    for (const OptionDoc& opt : list) {
      if (opt.positional) continue;
      o << "complete -c pgconflint -n '" << condition << "'";
      for (const std::string& n : opt.names)
        o << (n.size() == 2 ? " -s " + n.substr(1) : " -l " + n.substr(2));
      if (!opt.value.empty()) o << " -r";
      if (!opt.choices.empty()) {
        std::string words;
        for (const std::string& ch : opt.choices) words += (words.empty() ? "" : " ") + ch;
        o << " -f -a " << ShellQuoted(words);
      }
      o << " -d " << ShellQuoted(opt.description.substr(0, opt.description.find('\n'))) << "\n";
    }
  };
  options(ProgramOptions(), "not __fish_seen_subcommand_from " + names);
  for (const CommandDoc& c : commands) options(c.options, "__fish_seen_subcommand_from " + c.name);
  return o.str();
}

int Print(const std::string& text) {
  std::cout << text;
  return std::cout.flush() ? kExitOk : kExitInternal;
}

}  // namespace

Command AddMan(CLI::App* app, bool full) {
  CLI::App* man = app->add_subcommand("man", "Print the manual page (roff), made from the options' own definitions");
  if (!full) return {man, {}};
  return {man, [] { return Print(ManPage()); }};
}

Command AddCompletions(CLI::App* app, bool full) {
  CLI::App* c = app->add_subcommand("completions", "Print the completion script for a shell (bash, zsh or fish)");
  if (!full) return {c, {}};
  auto shell = std::make_shared<std::string>();
  c->add_option("shell", *shell, "The shell")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  return {c, [shell] { return Print(*shell == "bash" ? Bash() : *shell == "zsh" ? Zsh() : Fish()); }};
}

}  // namespace pgconflint::cli
