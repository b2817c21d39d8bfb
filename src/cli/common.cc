// Shared CLI plumbing.
#include "cli/common.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <tuple>

#include "core/base/file_system.h"
#include "core/base/limits.h"
#include "core/base/json_read.h"
#include "core/base/strings.h"
#include "report/text.h"

namespace pgconflint::cli {

void AddServerHostOption(CLI::App* sub, CommonOptions* o) {
  sub->add_option("--server-host", o->server_host,
                  "yes: pgconflint runs on the server's host, so locale, time zone and stack checks are "
                  "authoritative; no (the default): a value this machine refuses is a warning, never fatal")
      ->check(CLI::IsMember({"yes", "no"}))
      ->capture_default_str();
}

void AddCommonOptions(CLI::App* command, CommonOptions* o) {
  // In groups (also --help's sections): CLI11 compares each new option with
  // every earlier one of its group, so one group of 50 cost more CPU than
  // linting a small file.
  CLI::App* sub = command->add_option_group("Configuration and rules");
  sub->add_option("--pg-version", o->major,
                  "PostgreSQL major to check against (" + SupportedMajorsText("-") +
                      "; default: the data directory's PG_VERSION, a package path, a pg-version directive, the "
                      "config file, else " +
                      std::to_string(Catalog::DefaultMajor()) + ")")
      ->check(MajorValidator());
  sub->add_option("--config", o->config, "Use this .pgconflint.toml instead of searching upwards");
  sub->add_flag("--no-config", o->no_config, "Ignore .pgconflint.toml files");
  sub->add_flag("--allow-outside-includes", o->allow_outside_includes,
                "Read included files outside the checked tree (the root's directory and the .pgconflint.toml's); "
                "off: such an include is PGC305 and its file is not read");
  // One value per option, so that a PATH after it stays a PATH.
  sub->add_option("--rules", o->rules, "Extra rule file or directory (repeatable)")->allow_extra_args(false);
  // Comma lists are split in CheckCommonOptions: CLI11's delimiter drops
  // empty items, and an option left with none takes the next argument.
  sub->add_option("--select", o->select_lists, "Only these rules (codes, names or prefixes, comma-separated; repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--ignore", o->ignore_lists, "Skip these rules (comma-separated; repeatable)")->allow_extra_args(false);
  sub->add_option("--running", o->running_file,
                  "JSON object of the running server's pg_settings (name -> setting), for restart checks");
  AddServerHostOption(sub, o);
  CLI::App* profile = command->add_option_group("Machine profile");
  static const char* const kFacts[][2] = {
      {"ram", "RAM of the host, e.g. 64GB"},
      {"cpus", "CPU count"},
      // The fixed lists of values are added for --help only (DescribeForHelp).
      {"storage", "Storage of the data directory"},
      {"workload", "Workload of the server"},
      {"connections", "Expected concurrent connections"},
      {"os", "Operating system of the server"},
      {"container", "Container the server runs in"},
      {"io-uring", "yes if the kernel, the build and seccomp allow io_uring"},
      {"storage-safe-without-fsync", "yes for throwaway databases and atomic-write storage"},
      {"baseline-measurement", "yes while measuring a baseline with io_method = sync"},
      {"data-size", "Size of the databases on disk, e.g. 200GB (the AIO settings matter only when it exceeds memory)"},
      {"gssapi", "yes if the server's build has GSSAPI (hostgssenc rules, the gss method)"},
      {"huge-page-size", "The host's default huge page size, /proc/meminfo's Hugepagesize (default 2MB)"},
      {"huge-pages", "Huge pages the host has for the server (vm.nr_hugepages of the default size)"},
      {"build-features", "Optional libraries of the server's build: liburing, lz4, zstd, ldap, pam, bsd (comma-separated), or none"},
      {"nodes-per-query", "Sort/hash nodes per backend in the memory model (default 1)"},
      {"headroom", "Fraction of RAM kept free in the memory model (default 0.1)"},
  };
  for (const auto& f : kFacts) {
    std::string key = f[0];
    profile->add_option_function<std::string>("--" + key, [o, key](const std::string& v) { o->profile[key] = v; }, f[1]);
  }
  profile->add_option("--tablespace", o->tablespaces, "NAME=STORAGE of a tablespace (repeatable)")->allow_extra_args(false);
  sub->add_option("--file-type", o->file_type,
                  "How a file PATH is read: auto (pg_hba.conf and pg_ident.conf by name), conf, hba, ident")
      ->check(CLI::IsMember({"auto", "conf", "hba", "ident"}))
      ->capture_default_str();
  sub->add_option("--extension-catalog", o->extension_catalogs,
                  "TOML file describing third-party modules and their parameters (repeatable; "
                  "docs/extension-catalog.md)")
      ->allow_extra_args(false);
  sub->add_option("--server-hba", o->server_hba_file,
                  "JSON array of a running server's pg_hba_file_rules rows, compared with pg_hba.conf");
  sub->add_option("--server-ident", o->server_ident_file,
                  "JSON array of a running server's pg_ident_file_mappings rows, compared with pg_ident.conf");
  AddSqlOptions(sub, o);
}

bool ReadServerRows(const CommonOptions& c, ServerRows* rows, WorkspaceOptions* o) {
  RealFileSystem fs;
  for (const std::string* path : {&c.server_hba_file, &c.server_ident_file}) {
    if (path->empty()) continue;
    std::string text, error;
    if (fs.Read(*path, &text, &error) != ReadStatus::kOk) {
      PrintError(*path + ": " + error);
      return false;
    }
    bool ok = path == &c.server_hba_file ? ParseServerHbaRules(text, &rows->hba, &error)
                                         : ParseServerIdentMappings(text, &rows->ident, &error);
    if (!ok) {
      PrintError(*path + ": " + error);
      return false;
    }
  }
  if (!c.server_hba_file.empty()) o->server_hba = &rows->hba;
  if (!c.server_ident_file.empty()) o->server_ident = &rows->ident;
  return true;
}

void AddSqlOptions(CLI::App* sub, CommonOptions* o) {
  CLI::Option* cluster = sub->add_option(
      "--cluster", o->cluster,
      "SQL scripts: the data directory or postgresql.conf they run against (ALTER SYSTEM rewrites its "
      "postgresql.auto.conf); default: cluster in .pgconflint.toml, else the repository's only data directory");
  sub->add_option("--auto-conf", o->auto_conf,
                  "SQL scripts: the postgresql.auto.conf their ALTER SYSTEM statements rewrite")
      ->excludes(cluster);
}

bool ReadSnapshotFile(const std::string& path, Snapshot* out) {
  RealFileSystem fs;
  std::string text, error;
  if (fs.Read(path, &text, &error) != ReadStatus::kOk) {
    PrintError(path + ": " + error);
    return false;
  }
  if (!ReadSnapshot(text, out, &error)) {
    PrintError(path + ": " + error);
    return false;
  }
  if (out->server.empty()) out->server = path;
  return true;
}

void PrintError(const std::string& message) {
  std::cerr << "pgconflint: error: " << EscapeControls(message) << "\n";
}

CLI::Validator MajorValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        int major = 0;
        bool digits = !text.empty() && text.size() <= 4 && text.find_first_not_of("0123456789") == std::string::npos;
        if (digits) major = std::stoi(text);
        if (Catalog::ForMajor(major)) return "";
        return "no knowledge of PostgreSQL \"" + text + "\" (supported: " + CommaList(Catalog::SupportedMajors()) + ")";
      },
      "MAJOR");
}

bool CheckCommonOptions(CommonOptions* c) {
  for (auto [lists, out, flag] : {std::tuple{&c->select_lists, &c->select, "--select"},
                                  std::tuple{&c->ignore_lists, &c->ignore, "--ignore"}}) {
    for (const std::string& list : *lists) {
      for (size_t begin = 0, end; begin <= list.size(); begin = end + 1) {
        end = std::min(list.find(',', begin), list.size());
        std::string item = list.substr(begin, end - begin);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) out->push_back(item);
      }
    }
    if (!lists->empty() && out->empty()) {
      PrintError(std::string(flag) + ": the selector list is empty (give codes, names or prefixes: PGC201,PGC3)");
      return false;
    }
  }
  if (!c->config.empty()) {
    FileInfo info = RealFileSystem().Stat(c->config);
    const char* wrong = info.type == FileInfo::Type::kMissing     ? "no such file"
                        : info.type == FileInfo::Type::kDirectory ? "a directory, not a .pgconflint.toml file"
                        : info.type == FileInfo::Type::kOther     ? "not a regular file"
                        : info.type == FileInfo::Type::kError     ? "cannot be read"
                                                                  : nullptr;
    if (wrong) {
      PrintError("--config " + c->config + ": " + wrong + (info.error.empty() ? "" : " (" + info.error + ")"));
      return false;
    }
  }
  return true;
}

const Catalog* CatalogOrComplain(int major) {
  const Catalog* c = Catalog::ForMajor(major);
  if (!c) {
    PrintError("no knowledge of PostgreSQL " + std::to_string(major) + " (supported: " +
               CommaList(Catalog::SupportedMajors()) + ")");
  }
  return c;
}

const HostFacts& HostFor(const CommonOptions& c) {
  static const LocalHost server(true), elsewhere(false);
  return c.server_host == "no" ? static_cast<const HostFacts&>(elsewhere) : server;
}

WorkspaceOptions MakeWorkspaceOptions(const CommonOptions& c, const std::map<std::string, std::string>* running,
                                      const HostFacts* host) {
  WorkspaceOptions o;
  o.host = host;
  o.pg_version = c.major;
  o.use_config = !c.no_config;
  o.config_path = c.config;
  for (const auto& [k, v] : c.profile) o.profile_facts.emplace_back(k, v);
  for (const std::string& t : c.tablespaces) o.profile_facts.emplace_back("tablespace", t);
  o.rule_paths = c.rules;
  o.select = c.select;
  o.ignore = c.ignore;
  o.running = running;
  o.allow_outside_includes = c.allow_outside_includes;
  ParseRootFileType(c.file_type, &o.file_type);
  o.extension_catalogs = c.extension_catalogs;
  o.sql_cluster = c.cluster;
  o.sql_auto_conf = c.auto_conf;
  char buf[4096];
  o.display_base = getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
  return o;
}

namespace {

// " at line L, column C" of the first byte the JSON reader refuses.
std::string JsonErrorPosition(const std::string& text) {
  struct Locator : nlohmann::json_sax<nlohmann::json> {
    size_t at = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
      at = position;
      return false;
    }
  } locator;
  try {
    nlohmann::json::sax_parse(text, &locator);
  } catch (const std::exception&) {
    return "";
  }
  if (locator.at == 0) return "";
  size_t offset = std::min(locator.at - 1, text.size()), line = 1, column = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return " at line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

bool ParseRunning(std::string_view text, std::map<std::string, std::string>* out, std::string* error) {
  nlohmann::json j;
  try {
    j = ParseJson(text);
  } catch (const JsonTooDeep& e) {
    *error = e.what();
    return false;
  } catch (const nlohmann::json::exception&) {
    *error = "not valid JSON" + JsonErrorPosition(std::string(text)) +
             ": expected an object of parameter name -> setting, such as the output of "
             "SELECT json_object_agg(name, setting) FROM pg_settings";
    return false;
  }
  if (!j.is_object()) {
    *error = "expected a JSON object of parameter name -> setting";
    return false;
  }
  for (const auto& [k, v] : j.items()) {
    if (v.is_structured() || v.is_null() || v.is_binary()) {
      *error = "the setting of \"" + k + "\" must be a string, number or boolean";
      return false;
    }
    (*out)[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  return true;
}

bool ReadRunning(const std::string& path, std::map<std::string, std::string>* out) {
  RealFileSystem fs;
  std::string text, error;
  if (ReadDataFile(fs, path, &text, &error) != ReadStatus::kOk || !ParseRunning(text, out, &error)) {
    PrintError(path + ": " + error);
    return false;
  }
  return true;
}

int LintOne(Workspace* ws, const std::string& path, Analysis* out) {
  std::string error;
  if (!ws->Lint(path, out, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  if (out->failure != Analysis::Failure::kNone) {
    PrintError(out->failure_message);
    return out->failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage;
  }
  return kExitOk;
}

}  // namespace pgconflint::cli
