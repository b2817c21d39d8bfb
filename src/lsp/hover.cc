// textDocument/hover: a parameter's facts from the catalog (type, unit,
// range or values, default, context, majors) with what the files make of it
// (the value here, the line that overrides it, the effective value and its
// derivation), and with a live server its running value and a pending
// restart (live.cc); a rule's summary on a code in a `# pgconflint:` directive; in
// pg_hba.conf and pg_ident.conf, what the field and its word mean (core's
// DescribeAuthPosition).
#include <sstream>

#include "core/model/effective.h"
#include "core/base/strings.h"
#include "core/checks/extensions.h"
#include "core/hba/hba_docs.h"
#include "core/knowledge/value.h"
#include "core/base/escape.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

// What a context means for who may change a parameter and when
// (PostgreSQL's documentation of pg_settings.context).
std::string ContextMeaning(Context c, int major) {
  const std::string granted = major >= 15 ? " and roles granted SET on it" : "";
  switch (c) {
    case Context::kInternal: return "cannot be changed (fixed when the server was built or the cluster initialized)";
    case Context::kPostmaster: return "needs a server **restart**";
    case Context::kSighup: return "takes effect on **reload** (pg_ctl reload or SIGHUP), for every session";
    case Context::kSuperuserBackend: return "set at connection start, by superusers" + granted + "; not within a session";
    case Context::kBackend: return "set at connection start by any user; not within a session";
    case Context::kSuperuser: return "changed **per session** by superusers" + granted;
    case Context::kUser: return "changed **per session** by any user (SET)";
  }
  return "";
}

// A number of the parameter's base unit, with its unit: "4096 (4MB)".
std::string WithUnit(const Parameter& p, const char* value) {
  std::string out = MarkdownCode(value);
  if (p.type == VarType::kInteger && p.unit_kind != UnitKind::kNone && value[0] && value[0] != '-')
    out += " (" + FormatWithUnit(strtod(value, nullptr), p) + ")";
  return out;
}

// Which module defines the parameter and whether this configuration loads it.
void ModuleFacts(const Analysis& a, const ExtensionModule& module, std::ostringstream& o) {
  ModuleLoad load = LoadOf(a, module.name);
  o << "Defined by the module " << MarkdownCode(module.name) << ", ";
  if (load.shared_preload) o << "which `shared_preload_libraries` loads at server start.\n\n";
  else if (load.session_preload) o << "which `session_preload_libraries` loads in each session.\n\n";
  else if (load.archive_library) o << "which `archive_library` loads in the archiver.\n\n";
  else o << "which no `*_preload_libraries` setting of this configuration loads.\n\n";
}

void CatalogFacts(const Catalog& cat, const Parameter& p, std::ostringstream& o) {
  o << "- **type**: " << VarTypeName(p.type);
  if (p.unit[0]) o << ", unit " << MarkdownCode(p.unit);
  o << "\n";
  if ((p.type == VarType::kInteger || p.type == VarType::kReal) && p.min_val[0])
    o << "- **range**: " << MarkdownCode(p.min_val) << " to " << MarkdownCode(p.max_val) << (p.unit[0] ? std::string(" (") + p.unit + ")" : "")
      << "\n";
  if (p.type == VarType::kEnum) {
    o << "- **values**:";
    std::string needs;
    for (const EnumChoice& c : EnumChoices(p)) {
      o << " " << MarkdownCode(c.value);
      if (c.needs) needs += std::string(needs.empty() ? "" : "; ") + MarkdownCode(c.value) + " needs a server built with " + c.needs->name;
    }
    if (!needs.empty()) o << " (" << needs << ")";
    o << "\n";
  }
  o << "- **default**: " << (p.has_boot_val ? WithUnit(p, p.boot_val) : std::string("none")) << "\n";
  o << "- **context**: " << ContextName(p.context) << ": " << ContextMeaning(p.context, cat.major()) << "\n";
  const std::string majors = CommaList(MajorsOf(p));
  if (!majors.empty()) o << "- **exists in**: PostgreSQL " << majors << "\n";
  o << "- **category**: " << p.category << "\n";
}

// What the analysed files make of the parameter: the line under the cursor
// (`here`, may be null), the deciding line, the effective value.
void ConfiguredFacts(const Analysis& a, const Parameter& p, const Setting* here, std::ostringstream& o) {
  EffectiveConfig eff(a);
  const Setting* deciding = eff.SettingFor(p.name);
  o << "\n";
  if (here && here->overridden_by >= 0) {
    const Setting& later = a.settings[here->overridden_by];
    o << "**Overridden** by " << a.Describe({later.file, later.name_range}) << " (" << MarkdownCode(later.raw)
      << "): this line has no effect.\n";
    return;
  }
  if (here && !here->problem.empty()) o << "**Refused** by the server: " << here->problem << "\n\n";
  if (here && here->applied && here->value)
    o << "**This line**: " << MarkdownCode(here->raw) << (*here->value != here->raw ? " (the server reads " + MarkdownCode(*here->value) + ")" : "")
      << "\n";
  else if (!here && deciding)
    o << "**Set** at " << a.Describe({deciding->file, deciding->name_range}) << " to " << MarkdownCode(deciding->raw) << "\n";
  else if (!here || !deciding)
    o << "**Not set**: the default applies\n";
  if (here && deciding != here) return;
  if (std::optional<DerivedValue> d = eff.Adjusted(p.name))
    o << "\n**Effective**: " << MarkdownCode(d->value.Display()) << ", " << d->explanation << "\n";
}

}  // namespace

json Session::Hover(const json& params) {
  FileView view;
  if (!FreshView(params, &view)) return nullptr;
  const SourceFile& src = view.source();
  const uint32_t offset = OffsetOfPosition(src, Object(params, "position"), unit_);
  std::ostringstream o;
  Range word;
  if (DirectiveAt(view.loaded(), offset)) {
    word = WordAround(src.text(), offset, IsRuleChar);
    const RuleInfo* rule = workspace_->rules().Find(src.Slice(word));
    if (!rule || word.begin == word.end) return nullptr;
    o << "**" << rule->code << "** " << MarkdownCode(rule->name) << " (" << SeverityName(rule->severity) << ", " << rule->category
      << ")\n\n" << rule->summary << "\n";
    if (std::string page = RulePage(*rule, true); !page.empty()) o << "\n[Documentation](" << page << ")\n";
  } else if (view.loaded().kind != FileKind::kConf) {
    std::optional<AuthHover> auth = DescribeAuthPosition(*view.analysis, view.file, offset);
    if (!auth) return nullptr;
    word = auth->range;
    o << auth->markdown;
  } else {
    word = WordAround(src.text(), offset, IsNameChar);
    bool old_name = false;
    const ExtensionSet extensions = workspace_->extensions(view.analysis->catalog->major());
    const ExtensionModule* module = nullptr;
    const Parameter* p = ParameterNamed(*view.analysis->catalog, src.Slice(word), &old_name, &extensions, &module);
    if (!p) return nullptr;
    const Setting* here = SettingAt(*view.analysis, view.file, offset);
    if (here && (here->name_range.begin > word.begin || here->name_range.end < word.end)) here = nullptr;
    o << "### " << p->name << "\n\n";
    if (old_name) o << MarkdownCode(src.Slice(word)) << " is an old name for " << MarkdownCode(p->name) << ".\n\n";
    o << p->short_desc << "\n\n";
    if (p->extra_desc[0]) o << p->extra_desc << "\n\n";
    if (module) ModuleFacts(*view.analysis, *module, o);
    CatalogFacts(*view.analysis->catalog, *p, o);
    ConfiguredFacts(*view.analysis, *p, here, o);
    LiveHover(*p, o);
  }
  return {{"contents", {{"kind", "markdown"}, {"value", o.str()}}}, {"range", RangeJson(src, word, unit_)}};
}

}  // namespace pgconflint::lsp
