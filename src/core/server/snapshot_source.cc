// SnapshotSource: rebuilt files with the server's line numbers, settings at
// those lines, and the server's own complaints as findings.
#include "core/server/snapshot_source.h"

#include <algorithm>
#include <limits>
#include <set>

#include "core/conf/classify.h"
#include "core/server/server_state.h"
#include "core/sql/sql_quote.h"
#include "core/base/strings.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// One line of a rebuilt file: its text, and the name and value inside it.
struct Line {
  std::string text;
  Range name, value;  // relative to the line's start
};

// `name = 'value'`, optionally followed by a comment.
Line SettingText(const std::string& name, const std::string& value, const std::string& comment = "") {
  Line l;
  const std::string shown = OneLine(name);
  l.text = shown + " = " + OneLine(QuoteLiteral(value));
  l.name = {0, static_cast<uint32_t>(shown.size())};
  l.value = {static_cast<uint32_t>(shown.size() + 3), static_cast<uint32_t>(l.text.size())};
  if (!comment.empty()) l.text += "  # " + OneLine(comment);
  return l;
}

// A file rebuilt from the lines the server reports, at their line numbers
// (0: the next line after the last one).
class RebuiltFile {
 public:
  int Put(int line, Line l) {
    if (line <= 0) {
      // After the last one; past INT_MAX (a snapshot can say 2147483647) it
      // shares that line, where the first one wins.
      const int last = lines_.empty() ? 0 : lines_.rbegin()->first;
      line = last == std::numeric_limits<int>::max() ? last : last + 1;
    }
    lines_.emplace(line, std::move(l));  // the first one at a line wins
    return line;
  }
  bool Has(int line) const { return lines_.count(line) > 0; }
  // Adds the file to the analysis; *offsets receives each line's start.
  int AddTo(Analysis* a, const std::string& abs, const std::string& display, bool auto_conf,
            std::map<int, uint32_t>* offsets) const {
    std::string text;
    std::vector<uint32_t> numbers;  // only the reported lines are held (SourceFile numbers them)
    for (const auto& [n, l] : lines_) {
      (*offsets)[n] = static_cast<uint32_t>(text.size());
      numbers.push_back(static_cast<uint32_t>(n));
      text += l.text + '\n';
    }
    a->files.push_back({abs, SourceFile(display, text, std::move(numbers)), ParsedFile(), {}, 0, auto_conf});
    return static_cast<int>(a->files.size() - 1);
  }
  const std::map<int, Line>& lines() const { return lines_; }

 private:
  std::map<int, Line> lines_;
};

// A rebuilt file once added: where its lines are. A line the file does not
// hold (a row without a line number: a malformed snapshot) is the file's
// start.
struct Placed {
  int file = -1;
  std::map<int, uint32_t> offsets;
  const RebuiltFile* rebuilt = nullptr;
  Range NameAt(int line) const { return Part(line, &Line::name); }
  Range ValueAt(int line) const { return Part(line, &Line::value); }
  Range LineAt(int line) const {
    const auto [offset, l] = Find(line);
    return l ? Range{offset, offset + static_cast<uint32_t>(l->text.size())} : Range{0, 0};
  }

 private:
  // The line's offset in the rebuilt file and the line; null when absent.
  std::pair<uint32_t, const Line*> Find(int line) const {
    auto o = offsets.find(line);
    auto l = rebuilt->lines().find(line);
    if (o == offsets.end() || l == rebuilt->lines().end()) return {0, nullptr};
    return {o->second, &l->second};
  }
  Range Part(int line, Range Line::*part) const {
    const auto [offset, l] = Find(line);
    return l ? Range{offset + (l->*part).begin, offset + (l->*part).end} : Range{0, 0};
  }
};

class Builder {
 public:
  Builder(const Snapshot& s, Analysis* a) : s_(s), a_(a) {}

  void Run() {
    ServerFiles();
    Scoped();
    Tablespaces();
    HbaRules();
    Complaints();
  }

 private:
  // --- The configuration files and the running values --------------------------

  void ServerFiles() {
    std::map<std::string, RebuiltFile> files;  // by server path
    std::vector<std::string> order;            // in the server's reading order
    auto file = [&](const std::string& path) -> RebuiltFile& {
      if (!files.count(path)) order.push_back(path);
      return files[path];
    };
    if (s_.file_settings)
      for (const SnapshotFileSetting& f : *s_.file_settings) {
        if (f.sourcefile.empty()) continue;
        file(f.sourcefile).Put(f.sourceline, f.name.empty() ? Line{"# (a line the server could not read)", {}, {}}
                                                            : SettingText(f.name, f.setting));
      }
    RebuiltFile other;  // values that no visible file line holds
    setting_lines_.assign(s_.settings.size(), 0);
    for (size_t i = 0; i < s_.settings.size(); ++i) {
      const SnapshotSetting& r = s_.settings[i];
      if (!ClusterSource(r)) continue;
      if (!r.sourcefile.empty()) {
        RebuiltFile& f = file(r.sourcefile);
        // A row without a line number (a malformed snapshot) gets the next one.
        setting_lines_[i] = r.sourceline > 0 && f.Has(r.sourceline)
                                ? r.sourceline
                                : f.Put(r.sourceline, SettingText(r.name, r.setting));
      } else {
        other_lines_[r.name] = other.Put(0, SettingText(r.name, r.setting, "source: " + r.source));
      }
    }
    for (const std::string& path : order) {
      Placed& p = placed_[path];
      p.rebuilt = &(rebuilt_[path] = files[path]);
      p.file = p.rebuilt->AddTo(a_, path, path, NameOf(path) == NamedAs::kAutoConf, &p.offsets);
    }
    if (!other.lines().empty()) {
      other_.rebuilt = &(rebuilt_["pg_settings"] = other);
      other_.file = other_.rebuilt->AddTo(a_, s_.server + " pg_settings", "pg_settings", false, &other_.offsets);
    }
    RunningSettings();
  }

  // The cluster's running values as settings, at the line the server names.
  void RunningSettings() {
    for (size_t i = 0; i < s_.settings.size(); ++i) {
      const SnapshotSetting& r = s_.settings[i];
      if (!ClusterSource(r)) continue;
      Setting s;
      s.name = r.name;
      s.raw = s.text = r.setting;
      s.origin.kind = Origin::Kind::kServer;
      s.quoted = true;
      const Placed* p = !r.sourcefile.empty() ? &placed_.at(r.sourcefile) : &other_;
      int line = !r.sourcefile.empty() ? setting_lines_[i] : other_lines_.at(r.name);
      s.file = p->file;
      s.line = static_cast<uint32_t>(line);
      s.name_range = p->NameAt(line);
      s.value_range = p->ValueAt(line);
      a_->settings.push_back(std::move(s));
    }
  }

  // --- pg_db_role_setting and pg_tablespace, as the SQL that made them ---------

  void Scoped() {
    RebuiltFile f;
    struct Pending {
      Origin origin;
      std::string name, value;
      int line;
    };
    std::vector<Pending> pending;
    for (const SnapshotDbRoleSetting& row : s_.db_role_settings) {
      std::string target = row.role.empty() ? "ROLE ALL" : "ROLE " + QuoteIdentifier(row.role);
      if (row.role.empty() && !row.database.empty()) target = "DATABASE " + QuoteIdentifier(row.database);
      else if (!row.database.empty()) target += " IN DATABASE " + QuoteIdentifier(row.database);
      Origin o{row.role.empty() && !row.database.empty() ? Origin::Kind::kAlterDatabase : Origin::Kind::kAlterRole,
               row.database, row.role};
      for (const std::string& item : row.settings) {
        size_t eq = item.find('=');
        if (eq == std::string::npos) continue;
        std::string name = item.substr(0, eq), value = item.substr(eq + 1);
        Line l = SettingText(name, value);
        std::string prefix = "ALTER " + target + " SET ";
        l.text = prefix + l.text + ";";
        l.name = {static_cast<uint32_t>(prefix.size() + l.name.begin), static_cast<uint32_t>(prefix.size() + l.name.end)};
        l.value = {static_cast<uint32_t>(prefix.size() + l.value.begin), static_cast<uint32_t>(prefix.size() + l.value.end)};
        pending.push_back({o, name, value, f.Put(0, std::move(l))});
      }
    }
    if (pending.empty()) return;
    Placed& p = placed_["pg_db_role_setting"];
    p.rebuilt = &(rebuilt_["pg_db_role_setting"] = f);
    p.file = p.rebuilt->AddTo(a_, s_.server + " pg_db_role_setting", "pg_db_role_setting", false, &p.offsets);
    for (const Pending& x : pending) {
      Setting s;
      s.name = x.name;
      s.raw = s.text = x.value;
      s.origin = x.origin;
      s.quoted = true;
      s.file = p.file;
      s.line = static_cast<uint32_t>(x.line);
      s.name_range = p.NameAt(x.line);
      s.value_range = p.ValueAt(x.line);
      a_->settings.push_back(std::move(s));
    }
  }

  void Tablespaces() {
    for (const SnapshotDatabase& d : s_.databases) a_->database_tablespaces[d.name] = d.tablespace;
    for (const SnapshotTablespace& t : s_.tablespaces)
      if (t.name != "pg_default" && t.name != "pg_global") a_->tablespaces.push_back({t.name, -1, {}});
    RebuiltFile f;
    std::vector<TablespaceSetting> pending;
    std::vector<int> lines;
    for (const SnapshotTablespace& t : s_.tablespaces)
      for (const std::string& item : t.options) {
        size_t eq = item.find('=');
        if (eq == std::string::npos) continue;
        std::string option = item.substr(0, eq), value = item.substr(eq + 1);
        std::string prefix = "ALTER TABLESPACE " + QuoteIdentifier(t.name) + " SET (";
        Line l{prefix + option + " = " + value + ");",
               {static_cast<uint32_t>(prefix.size()), static_cast<uint32_t>(prefix.size() + option.size())},
               {static_cast<uint32_t>(prefix.size() + option.size() + 3),
                static_cast<uint32_t>(prefix.size() + option.size() + 3 + value.size())}};
        lines.push_back(f.Put(0, std::move(l)));
        pending.push_back({t.name, option, value, -1, {}, {}});
      }
    if (pending.empty()) return;
    Placed& p = placed_["pg_tablespace"];
    p.rebuilt = &(rebuilt_["pg_tablespace"] = f);
    p.file = p.rebuilt->AddTo(a_, s_.server + " pg_tablespace", "pg_tablespace", false, &p.offsets);
    for (size_t i = 0; i < pending.size(); ++i) {
      pending[i].file = p.file;
      pending[i].name_range = p.NameAt(lines[i]);
      pending[i].value_range = p.ValueAt(lines[i]);
      for (TablespaceRef& t : a_->tablespaces)
        if (t.name == pending[i].tablespace && t.file < 0) t = {t.name, p.file, p.LineAt(lines[i])};
      a_->tablespace_settings.push_back(std::move(pending[i]));
    }
  }

  // --- pg_hba.conf, the server's complaints, what could not be seen ------------

  // pg_hba.conf rebuilt from pg_hba_file_rules under the server's file names
  // (every row: the advice rules read them, core/hba/hba_source.h), and the
  // lines of pg_ident.conf the server reports an error for.
  void HbaRules() {
    const SnapshotSetting* hba = s_.Setting("hba_file");
    const SnapshotSetting* ident = s_.Setting("ident_file");
    std::map<std::string, RebuiltFile> files;
    std::set<std::string> hba_paths;
    // Puts a row's line in its file; with an error, remembers it for Complaints.
    auto add = [&](bool is_ident, const std::string& file_name, int line, std::string text, const std::string& error) {
      const SnapshotSetting* setting = is_ident ? ident : hba;
      std::string path = !file_name.empty() ? file_name : setting ? setting->setting
                                                                  : is_ident ? "pg_ident.conf" : "pg_hba.conf";
      if (!is_ident) hba_paths.insert(path);
      if (text.empty()) text = "# (a line the server could not read)";
      const int at = files[path].Put(line, {OneLine(text), {}, {}});
      if (!error.empty()) hba_errors_.push_back({path, at, error, is_ident});
    };
    if (s_.hba_rules)
      for (const ServerHbaRule& r : *s_.hba_rules)
        add(false, r.file_name, r.line_number, RowText(r), r.error.value_or(""));
    if (s_.ident_mappings)
      for (const ServerIdentMapping& m : *s_.ident_mappings)
        if (m.error && !m.error->empty()) add(true, m.file_name, m.line_number, RowText(m), *m.error);  // errors only
    for (auto& [path, f] : files) {
      Placed& p = placed_["hba " + path];
      p.rebuilt = &(rebuilt_["hba " + path] = f);
      p.file = p.rebuilt->AddTo(a_, path, path, false, &p.offsets);
      a_->files[p.file].kind = hba_paths.count(path) ? FileKind::kHba : FileKind::kIdent;
    }
  }

  std::string Running(const SnapshotSetting& r) const { return RunningText(*a_->catalog, r); }

  void Add(RuleId rule, Location where, std::string message, std::string help, std::string parameter = "") {
    a_->Add(MakeDiagnostic(Rule(rule), where, std::move(message), std::move(help), std::move(parameter)));
  }

  void Complaints() {
    for (const auto& e : hba_errors_) {
      const Placed& p = placed_.at("hba " + e.path);
      a_->Add(AuthLoadFinding(e.error, e.ident, {p.file, p.LineAt(e.line)}));
    }
    FileComplaints();
    Visibility();
  }

  // Without pg_file_settings the new value is unknown: the finding stands at
  // the running value's line.
  void PendingWithoutFiles() {
    for (const Setting& s : a_->settings) {
      const SnapshotSetting* r = s.origin.kind == Origin::Kind::kServer ? s_.Setting(s.name) : nullptr;
      if (!r || !r->pending_restart) continue;
      Add(RuleId::kPendingRestart, {s.file, {s.name_range.begin, s.value_range.end}},
          r->name + " was changed in the configuration files, but the server keeps running with " +
              QuoteLiteral(Running(*r)) + " until it restarts (context " + r->context + ")",
          "restart the server to apply it", r->name);
    }
  }

  void FileComplaints() {
    if (!s_.file_settings) return PendingWithoutFiles();
    std::set<std::string> pending;
    for (const SnapshotSetting& r : s_.settings)
      if (r.pending_restart) pending.insert(AsciiLower(r.name));
    // The last line of each pending parameter says what the files want.
    std::map<std::string, const SnapshotFileSetting*> last;
    for (const SnapshotFileSetting& f : *s_.file_settings)
      if (!f.name.empty() && pending.count(AsciiLower(f.name))) last[AsciiLower(f.name)] = &f;
    for (const SnapshotFileSetting& f : *s_.file_settings) {
      if (f.sourcefile.empty() || !placed_.count(f.sourcefile)) continue;
      const Placed& p = placed_.at(f.sourcefile);
      Range at = p.LineAt(f.sourceline);
      bool is_pending = !f.name.empty() && last.count(AsciiLower(f.name)) && last[AsciiLower(f.name)] == &f;
      if (is_pending) {
        const SnapshotSetting* r = s_.Setting(f.name);
        Add(RuleId::kPendingRestart, {p.file, at},
            f.name + " is " + QuoteLiteral(f.setting) + " in the configuration files, but the server keeps running " +
                "with " + QuoteLiteral(Running(*r)) + " until it restarts (context " + r->context + ")",
            "restart the server to apply it, or put the running value back in the file", r->name);
      } else if (s_.Refused(f)) {
        a_->Add(RefusedLineFinding(s_, f, {p.file, at}));
      }
    }
  }

  void Visibility() {
    const std::string who = s_.user.empty() ? "the connecting role" : "role " + s_.user;
    // The role as GRANT names it (quoted when it needs it: App, app-user).
    const SqlFacts* facts = SqlFacts::ForMajor(s_.major());
    const std::string role = s_.user.empty() ? "the_role"
                             : facts         ? QuoteIdentifierIfNeeded(*facts, s_.user)
                                             : QuoteIdentifier(s_.user);
    if (!s_.file_settings)
      Add(RuleId::kLiveViewLimited, {},
          "pg_file_settings is not visible to " + who +
              ": lines the server failed to apply and values waiting for a restart are not checked",
          "as a superuser: GRANT SELECT ON pg_file_settings TO " + role +
              "; GRANT EXECUTE ON FUNCTION pg_show_all_file_settings() TO " + role);
    if (!s_.hba_rules)
      Add(RuleId::kLiveViewLimited, {}, "pg_hba_file_rules is not visible to " + who + ": pg_hba.conf is not checked",
          "as a superuser: GRANT SELECT ON pg_hba_file_rules TO " + role +
              "; GRANT EXECUTE ON FUNCTION pg_hba_file_rules() TO " + role);
    if (!s_.ident_mappings && s_.major() >= 15)
      Add(RuleId::kLiveViewLimited, {},
          "pg_ident_file_mappings is not visible to " + who + ": pg_ident.conf is not checked",
          "as a superuser: GRANT SELECT ON pg_ident_file_mappings TO " + role +
              "; GRANT EXECUTE ON FUNCTION pg_ident_file_mappings() TO " + role);
    if (!s_.superuser && !s_.pg_read_all_settings)
      Add(RuleId::kLiveViewLimited, {},
          "pg_settings hides the superuser-only parameters and every setting's file and line from " + who +
              ": they are not checked, and findings point at pg_settings instead of the files",
          "GRANT pg_read_all_settings TO " + role + " (or pg_monitor, which includes it)");
  }

  struct HbaError {
    std::string path;
    int line;
    std::string error;
    bool ident;  // a pg_ident.conf line (else pg_hba.conf)
  };

  const Snapshot& s_;
  Analysis* a_;
  std::map<std::string, RebuiltFile> rebuilt_;  // owns the files the Placed point into
  std::map<std::string, Placed> placed_;
  Placed other_;
  std::map<std::string, int> other_lines_;
  std::vector<HbaError> hba_errors_;
  std::vector<int> setting_lines_;  // per pg_settings row: its line in its rebuilt file
};

}  // namespace

bool ServerDefault(const SnapshotSetting& s) {
  return s.source == "default" || (s.source == "environment variable" && AsciiLower(s.name) == "max_stack_depth");
}

bool ClusterSource(const SnapshotSetting& s) {
  return !ServerDefault(s) &&
         (s.source == "configuration file" || s.source == "command line" || s.source == "environment variable");
}

std::map<std::string, std::string> RunningValues(const Snapshot& snapshot) {
  std::map<std::string, std::string> out;
  for (const SnapshotSetting& s : snapshot.settings) out[s.name] = s.setting;
  return out;
}

void SnapshotSource::Collect(const CollectContext&, Analysis* a) const {
  if (!a->catalog) {
    a->failure = Analysis::Failure::kUsage;
    a->failure_message = "no knowledge of PostgreSQL " + std::to_string(snapshot_.major()) + " (supported: " +
                         SupportedMajorsText() + ")";
    return;
  }
  Builder(snapshot_, a).Run();
}

}  // namespace pgconflint
