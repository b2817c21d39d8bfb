// Which authentication files a root has, read and parsed into
// Analysis::auth, then checked. As the server: pg_hba.conf and pg_ident.conf
// next to postgresql.conf unless hba_file / ident_file name others; a
// relative hba_file is resolved against the directory the server was
// started from (docs/postgresql-semantics.md#hba-locations), which only the
// server's host knows.
#include "core/hba/hba_source.h"

#include <set>

#include "core/conf/classify.h"
#include "core/hba/hba_checks.h"
#include "core/base/strings.h"
#include "core/hba/hba_server.h"
#include "core/model/outside_tree.h"
#include "core/conf/passes.h"

namespace pgconflint {
namespace {

constexpr char kHbaName[] = "pg_hba.conf";
constexpr char kIdentName[] = "pg_ident.conf";


// The effective text of a parameter in `a` (its boot value when no line sets it).
std::optional<std::string> EffectiveText(const Analysis& a, const char* name, const Setting** at = nullptr) {
  if (!a.catalog || !a.catalog->Find(name)) return std::nullopt;
  const Setting* s = a.Effective(name);
  if (at) *at = s;
  if (s && s->value) return *s->value;
  return std::string(a.catalog->Find(name)->boot_val);
}

// One of the two files: where it is and how it was found.
struct Located {
  std::string path;     // absolute; "" when there is none to read
  std::string display;  // as shown to users
  const Setting* setting = nullptr;  // hba_file / ident_file when it named the file
  bool required = false;             // a missing file is a finding
};

class AuthLinter {
 public:
  AuthLinter(const CollectContext& ctx, const AuthLintOptions& o, const Profile& profile, Analysis* a)
      : ctx_(ctx), o_(o), profile_(profile), a_(a), fs_(ctx.files->fs()) {}

  // A server's pg_hba.conf as its snapshot rebuilt it (the one file of kind
  // kHba): the rules of rules/hba.toml over its rows, with the running
  // settings as facts. Rows the server reports in error keep the server's
  // finding only. Rules from several files (16+ includes) are left alone:
  // their order, which the shadowing rules need, is not kept here.
  void RunOnServerRows() {
    int file = -1;
    for (size_t i = 0; i < a_->files.size(); ++i) {
      if (a_->files[i].kind != FileKind::kHba) continue;
      if (file >= 0) return;
      file = static_cast<int>(i);
    }
    if (file < 0) return;
    Facts(a_);
    std::set<uint32_t> refused;  // where the server's own findings are
    for (const Diagnostic& d : a_->diagnostics)
      if (d.file == file && d.rule == &Rule(RuleId::kHbaFileError)) refused.insert(d.range.begin);
    AuthReadContext rc{ctx_.files, a_, ctx_.display_base, auth_.options.major, {}, false};
    auth_.hba_file = file;
    for (AuthLine& line : TokenizeAuthFile(rc, file))
      if (!refused.count(line.range.begin)) auth_.hba_lines.push_back(std::move(line));
    for (size_t i = 0; i < auth_.hba_lines.size(); ++i) {
      auth_.hba.push_back(ParseHbaLine(auth_.hba_lines[i], auth_.options));
      auth_.hba.back().line_index = i;
    }
    CheckAuthConfig(auth_, facts_, a_);
    a_->auth = std::make_shared<AuthConfig>(std::move(auth_));
  }

  void Run(const std::string& root) {
    std::string abs = AbsolutePath(fs_, root);
    bool dir = fs_.Stat(abs).type == FileInfo::Type::kDirectory;
    // As includes: the root's tree (its directory, a data directory itself)
    // and the context's.
    trees_ = ctx_.trees;
    AddRootTrees(ctx_, fs_, abs, dir, &trees_);
    RootFileType type = dir || o_.root_type == RootFileType::kAuto ? RootFileType::kConf : o_.root_type;
    const Analysis* conf = a_;
    Located hba, ident;
    if (type == RootFileType::kConf) {
      hba = Locate(root, abs, dir, "hba_file", kHbaName);
      ident = Locate(root, abs, dir, "ident_file", kIdentName);
    } else {
      std::string parent = ParentDirectory(abs);
      Located& self = type == RootFileType::kHba ? hba : ident;
      Located& other = type == RootFileType::kHba ? ident : hba;
      self = {abs, root, nullptr, true};
      std::string other_path = parent + "/" + (type == RootFileType::kHba ? kIdentName : kHbaName);
      if (fs_.Stat(other_path).type == FileInfo::Type::kRegular) other = {other_path, Display(other_path), nullptr, false};
      // On its own: no postgresql.conf says how the server runs (a pg_hba.conf
      // beside one is its data directory's, and linted there).
      conf = nullptr;
    }
    Facts(conf);
    if (!hba.path.empty() || !ident.path.empty()) Read(hba, ident);
  }

 private:
  std::string Display(const std::string& abs) const { return DisplayPath(abs, ctx_.display_base); }

  // A data directory's own file, or the one hba_file / ident_file names: a
  // path on the server's host, mapped onto the checked tree when the tree
  // has the file (a package's /etc/postgresql/16/main/pg_hba.conf beside
  // its postgresql.conf), never read from this machine in its place.
  Located Locate(const std::string& root, const std::string& abs, bool dir, const char* parameter, const char* name) {
    Located out;
    const Setting* s = nullptr;
    if (a_->catalog) s = a_->Effective(parameter);
    if (s && s->value && !s->value->empty()) {
      out.setting = s;
      if ((*s->value)[0] != '/') {
        a_->Add(MakeDiagnostic(Rule(RuleId::kAuthFileNotRead), {s->file, s->value_range},
                               std::string(parameter) + " = " + *s->value +
                                   " is relative: the server resolves it against the directory it is started "
                                   "from, not the data directory, so it was not checked",
                               "give an absolute path", parameter));
        return Located();
      }
      out.path = CanonicalizePath(*s->value);
      const std::string root_dir = fs_.RealPath(dir ? abs : ParentDirectory(abs));
      if (std::string mapped = MapServerPath(fs_, out.path, root_dir); !mapped.empty()) out.path = mapped;
      out.display = Display(out.path);
      out.required = true;
      return out;
    }
    if (!dir) return out;  // a config file's defaults depend on how the server is started
    out.path = ChildPath(abs, name);
    out.display = ctx_.display_base.empty() ? ChildPath(root, name) : Display(out.path);
    return out;
  }

  void Facts(const Analysis* conf) {
    AuthParseOptions& p = auth_.options;
    p.major = a_->catalog ? a_->catalog->major() : Catalog::DefaultMajor();
    p.gssapi = profile_.gssapi;
    p.build_features = profile_.build_features;
    p.os = profile_.os;
    facts_.gssapi = profile_.gssapi;
    if (!conf) return;
    if (auto ssl = EffectiveText(*conf, "ssl", conf == a_ ? &facts_.ssl_setting : nullptr)) {
      p.ssl = *ssl == "on";
      facts_.ssl = p.ssl;
    }
    if (auto pe = EffectiveText(*conf, "password_encryption",
                                conf == a_ ? &facts_.password_encryption_setting : nullptr))
      facts_.password_encryption = *pe;
    p.oauth_validator_libraries = EffectiveText(*conf, "oauth_validator_libraries");
  }

  int Open(const Located& f, FileKind kind) {
    if (f.path.empty()) return -1;
    // A data directory's own file that is a link leading out of the tree:
    // never read, and said, as for postgresql.auto.conf (an hba_file
    // elsewhere is PGC844 at its line, below; a root file fails).
    std::string real;
    if (!ctx_.allow_outside && !f.setting && !InsideTrees(fs_, f.path, trees_, &real)) {
      if (!a_->files.empty()) {
        a_->Add(OutsideTreeDiagnostic(fs_, f.path, f.display, false, false, trees_, Location{}));
      } else {  // the root itself, as a postgresql.conf root: a usage error
        a_->failure = Analysis::Failure::kUsage;
        a_->failure_message = f.display + ": resolves to " + real +
                              ", outside the tree being checked; not read (--allow-outside-includes reads it)";
      }
      return -1;
    }
    ReadStatus status;
    std::string error;
    AuthReadContext rc{ctx_.files, a_, ctx_.display_base, auth_.options.major, trees_, ctx_.allow_outside};
    int idx = AddAuthFile(rc, f.path, {}, 0, kind, &status, &error);
    if (idx >= 0) {
      a_->files[idx].source = SourceFile(f.display, a_->files[idx].source.text());
      return idx;
    }
    if (status == ReadStatus::kNotFound && !f.required) return -1;
    if (f.setting) {
      a_->Add(MakeDiagnostic(Rule(RuleId::kAuthFileNotRead), {f.setting->file, f.setting->value_range},
                             f.path + " cannot be read here (" + error + "), so it was not checked",
                             "check it on the server, or give a copy to pgconflint", f.setting->name));
    } else if (a_->files.empty()) {
      a_->failure = status == ReadStatus::kNotReadable ? Analysis::Failure::kIo : Analysis::Failure::kUsage;
      a_->failure_message = f.display + ": " + error;
    }
    return -1;
  }

  void Read(const Located& hba, const Located& ident) {
    AuthReadContext rc{ctx_.files, a_, ctx_.display_base, auth_.options.major, trees_, ctx_.allow_outside};
    std::vector<OutsideRead> outside;
    rc.outside = &outside;
    auth_.hba_file = Open(hba, FileKind::kHba);
    if (a_->failure != Analysis::Failure::kNone) return;
    if (auth_.hba_file >= 0) {
      auth_.hba_lines = TokenizeAuthFile(rc, auth_.hba_file);
      auth_.hba.reserve(auth_.hba_lines.size());
      for (size_t i = 0; i < auth_.hba_lines.size(); ++i) {
        auth_.hba.push_back(ParseHbaLine(auth_.hba_lines[i], auth_.options));
        auth_.hba.back().line_index = i;
      }
    }
    auth_.ident_file = Open(ident, FileKind::kIdent);
    if (a_->failure != Analysis::Failure::kNone) return;
    if (auth_.ident_file >= 0) {
      auth_.ident_lines = TokenizeAuthFile(rc, auth_.ident_file);
      auth_.ident.reserve(auth_.ident_lines.size());
      for (size_t i = 0; i < auth_.ident_lines.size(); ++i) {
        auth_.ident.push_back(ParseIdentLine(auth_.ident_lines[i], auth_.options));
        auth_.ident.back().line_index = i;
      }
    }
    for (const OutsideRead& o : outside)
      a_->Add(OutsideTreeDiagnostic(fs_, o.path, Display(o.path), false, false, trees_, {o.file, o.line}));
    CheckAuthConfig(auth_, facts_, a_);
    if (o_.server_hba || o_.server_ident) {
      static const std::vector<ServerHbaRule> no_hba;
      static const std::vector<ServerIdentMapping> no_ident;
      const auto compare = o_.in_force ? CompareInForce : CompareWithServer;
      for (const AuthDifference& d : compare(auth_, *a_, o_.server_hba ? *o_.server_hba : no_hba,
                                             o_.server_ident ? *o_.server_ident : no_ident, o_.server_hba != nullptr,
                                             o_.server_ident != nullptr)) {
        Diagnostic& diag = a_->Add(MakeDiagnostic(
            Rule(RuleId::kAuthDiffersFromServer), d.where, d.message,
            d.build_dependent ? "the server's build decides this line: pgconflint assumes a build with every method"
            : o_.in_force     ? "deploy these files and reload, or bring the repository up to date with the server"
                              : "check that the server reads these files (SHOW hba_file, SHOW ident_file)"));
        if (d.build_dependent) diag.level = Severity::kInfo;
      }
    }
    a_->auth = std::make_shared<AuthConfig>(std::move(auth_));
  }

  const CollectContext& ctx_;
  const AuthLintOptions& o_;
  const Profile& profile_;
  Analysis* a_;
  const FileSystem& fs_;
  std::vector<std::string> trees_;  // where files may be read from (links resolved)
  AuthConfig auth_;
  AuthFacts facts_;
};

}  // namespace

bool ParseRootFileType(const std::string& text, RootFileType* out) {
  static const std::pair<const char*, RootFileType> kNames[] = {
      {"auto", RootFileType::kAuto}, {"conf", RootFileType::kConf}, {"hba", RootFileType::kHba},
      {"ident", RootFileType::kIdent}};
  for (const auto& [name, type] : kNames)
    if (text == name) {
      *out = type;
      return true;
    }
  return false;
}

void LintAuthFiles(const CollectContext& context, const std::string& root, const AuthLintOptions& options,
                   const Profile& profile, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone || root.empty()) return;
  AuthLinter(context, options, profile, a).Run(root);
}

void LintServerAuthRows(const CollectContext& context, const Profile& profile, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone) return;
  static const AuthLintOptions kOptions;
  AuthLinter(context, kOptions, profile, a).RunOnServerRows();
}

}  // namespace pgconflint
