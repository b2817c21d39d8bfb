// Build-time generator: turns knowledge/pg*.json and rules/*.toml into C++
// tables, so that the pgconflint binary parses nothing at start-up.
//
//   pgconflint_embed --out DIR [--majors majors.json] --knowledge F.json... [--extensions F.json...]
//                    [--rules F.toml... --rule-ids rule_ids.h] [--storage storage.toml] [--text F...]
//                    [--shared-memory shared_memory.json]
//
// With --majors (knowledge/majors.json: the supported majors and the default),
// writes DIR/knowledge_data.cc and DIR/extension_data.cc, the catalogs of the
// majors it lists (one --knowledge and one --extensions file each); with
// --rules, DIR/rules_data.cc (names checked against the --knowledge files, and
// the hand-written RuleId values of --rule-ids against the rules); with
// --storage, DIR/storage_data.cc (knowledge/storage.toml as tables); with --text, DIR/texts_data.cc;
// with --shared-memory, DIR/shared_memory_data.cc. Each file is written only
// when its content changed (so that a rebuild stays incremental).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/quantity.h"
#include "gen/embed.h"

namespace {

using nlohmann::json;
using namespace pgconflint::embed;  // the shared helpers and GenerateRules


// Parses pg_settings' unit into (kind, amount) with the runtime's quantity
// parser: "8kB" -> memory 8192 bytes, "min" -> time 60000 ms.
std::pair<std::string, double> ParseUnit(const std::string& unit) {
  if (unit.empty()) return {"kNone", 0};
  pgconflint::Quantity q;
  std::string error;
  std::string text = isdigit(static_cast<unsigned char>(unit[0])) ? unit : "1" + unit;
  if (!pgconflint::ParseQuantity(text, &q, &error) || q.dim == pgconflint::Dim::kNone)
    throw std::runtime_error("unknown unit in knowledge: " + unit + (error.empty() ? "" : " (" + error + ")"));
  return {q.dim == pgconflint::Dim::kBytes ? "kMemory" : "kTime", q.value};
}

std::string ContextEnum(const std::string& c) {
  static const std::map<std::string, std::string> m = {
      {"internal", "kInternal"},   {"postmaster", "kPostmaster"},
      {"sighup", "kSighup"},       {"superuser-backend", "kSuperuserBackend"},
      {"backend", "kBackend"},     {"superuser", "kSuperuser"},
      {"user", "kUser"}};
  auto it = m.find(c);
  if (it == m.end()) throw std::runtime_error("unknown context: " + c);
  return "Context::" + it->second;
}

std::string TypeEnum(const std::string& t) {
  static const std::map<std::string, std::string> m = {
      {"bool", "kBool"}, {"integer", "kInteger"}, {"real", "kReal"},
      {"string", "kString"}, {"enum", "kEnum"}};
  auto it = m.find(t);
  if (it == m.end()) throw std::runtime_error("unknown vartype: " + t);
  return "VarType::" + it->second;
}

std::string Num(const std::string& s) {
  if (s.empty()) return "0";
  // pg_settings prints min/max with %d or %g; strtod reads both.
  double d = std::strtod(s.c_str(), nullptr);
  std::ostringstream o;
  o.precision(17);
  o << d;
  std::string r = o.str();
  if (r == "inf") return "__builtin_huge_val()";
  if (r == "-inf") return "-__builtin_huge_val()";
  return r;
}

// One Parameter initializer for pg_settings row `p` (knowledge/pg*.json or
// knowledge/extensions/pg*.json); its enum and hidden-value arrays are written
// to `o` first, named after `id`.
std::string ParameterEntry(std::ostringstream& o, const json& p, const std::string& id, unsigned majors) {
  std::string name = p["name"];
  std::ostringstream table;
  // A list field of `p` as an array named id_suffix; the span over it, or
  // "{}" when the field is absent, null or empty.
  auto strings = [&](const char* field, const char* suffix) -> std::string {
    if (!p.contains(field) || !p[field].is_array() || p[field].empty()) return "{}";
    o << "const char* const " << id << suffix << "[] = {";
    for (const auto& v : p[field]) o << Lit(v.get<std::string>()) << ", ";
    o << "};\n";
    return "std::span<const char* const>(" + id + suffix + ")";
  };
  // An object field of `p` (spelling -> text) as HiddenEnumValue pairs.
  auto pairs = [&](const char* field, const char* suffix) -> std::string {
    if (!p.contains(field) || !p[field].is_object() || p[field].empty()) return "{}";
    o << "const HiddenEnumValue " << id << suffix << "[] = {";
    for (const auto& [k, v] : p[field].items()) o << "{" << Lit(k) << ", " << Lit(v.get<std::string>()) << "}, ";
    o << "};\n";
    return "std::span<const HiddenEnumValue>(" + id + suffix + ")";
  };
  const std::string enum_span = strings("enumvals", "_enum");
  const std::string hidden_span = pairs("hidden_enumvals", "_hidden");
  const std::string build_span = strings("build_dependent_enumvals", "_build");
  const std::string output_span = pairs("enumval_output", "_output");
  const std::string keywords_span = strings("list_keywords", "_keywords");
  const std::string refused_span = pairs("refused_values", "_refused");
  auto [kind, amount] = ParseUnit(Str(p, "unit"));
  const json fs = p.value("file_setting", json::object());
  const json as = p.value("alter_system", json::object());
  bool has_boot = p.contains("boot_val") && !p["boot_val"].is_null();
  std::ostringstream amt;
  amt.precision(17);
  amt << amount;
  // Parameters hidden from pg_settings may lack a harvested type and
  // context; they are then treated as strings any session may set.
  std::string vartype = Str(p, "vartype"), context = Str(p, "context");
  table << "{" << Lit(name) << ", " << TypeEnum(vartype.empty() ? "string" : vartype) << ", "
        << ContextEnum(context.empty() ? "user" : context) << ", " << Lit(Str(p, "unit")) << ", UnitKind::" << kind
        << ", " << amt.str() << ", " << Lit(Str(p, "category")) << ", "
        << Lit(Str(p, "short_desc")) << ", " << Lit(Str(p, "extra_desc")) << ", "
        << Lit(Str(p, "min_val")) << ", " << Lit(Str(p, "max_val")) << ", "
        << Num(Str(p, "min_val")) << ", " << Num(Str(p, "max_val")) << ", " << enum_span
        << ", " << hidden_span << ", " << build_span << ", " << output_span << ", " << keywords_span << ", "
        << (p.value("file_value_ignored", false) ? "true" : "false") << ", " << refused_span << ", "
        << Lit(Str(p, "boot_val")) << ", "
        << (has_boot ? "true" : "false") << ", "
        << (p.value("in_pg_settings", true) ? "true" : "false") << ", "
        << (p.value("list_input", false) ? "true" : "false") << ", "
        << (fs.value("accepted", true) ? "true" : "false") << ", " << Lit(Str(fs, "message"))
        << ", " << (as.value("accepted", true) ? "true" : "false") << ", "
        << Lit(Str(as, "message")) << ", " << majors << "}";
  return table.str();
}

std::vector<json> ReadKnowledge(const std::vector<std::string>& files) {
  std::vector<json> docs;
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) throw std::runtime_error("cannot read " + f);
    docs.push_back(json::parse(in));
  }
  return docs;
}

// knowledge/majors.json: the supported majors, ascending, and the default one.
struct Majors {
  std::vector<int> list;
  int default_major = 0;

  // The bit of `major` in Parameter::majors: its index in the list.
  unsigned Bit(int major) const {
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i] == major) return 1u << i;
    throw std::runtime_error("major " + std::to_string(major) + " is not in the list of majors");
  }
};

Majors ReadMajors(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  const json doc = json::parse(in);
  Majors m;
  for (const json& e : doc.at("majors")) {
    int major = e.at("major").get<int>();
    if (!m.list.empty() && major <= m.list.back()) throw std::runtime_error(path + ": majors must be ascending");
    m.list.push_back(major);
  }
  m.default_major = doc.at("default").get<int>();
  if (m.list.empty() || m.list.size() > 32) throw std::runtime_error(path + ": 1 to 32 majors (Parameter::majors)");
  if (std::find(m.list.begin(), m.list.end(), m.default_major) == m.list.end())
    throw std::runtime_error(path + ": the default major is not in the list");
  return m;
}

// `docs` (knowledge/pg*.json or knowledge/extensions/pg*.json) in the order of
// the list, one per listed major and no other.
std::vector<json> InListOrder(const std::vector<json>& docs, const Majors& majors, const std::string& what) {
  std::vector<json> out;
  for (int major : majors.list) {
    size_t n = 0;
    for (const json& d : docs)
      if (d.at("major").get<int>() == major) {
        out.push_back(d);
        ++n;
      }
    if (n != 1) throw std::runtime_error(std::to_string(n) + " " + what + " files of major " + std::to_string(major));
  }
  if (out.size() != docs.size()) throw std::runtime_error(what + " files of majors the list of majors does not name");
  return out;
}

// In which majors does each (lower-cased) name exist? Bits as Majors::Bit.
std::map<std::string, unsigned> MajorBits(const std::vector<json>& docs, const Majors& majors) {
  std::map<std::string, unsigned> bits;
  for (const auto& d : docs)
    for (const auto& p : d["parameters"])
      bits[Lower(p["name"].get<std::string>())] |= majors.Bit(d["major"].get<int>());
  return bits;
}

std::string GenerateKnowledge(const std::vector<json>& files, const Majors& list) {
  const std::vector<json> docs = InListOrder(files, list, "knowledge");
  std::map<std::string, unsigned> majors = MajorBits(docs, list);

  std::ostringstream o;
  o << "// Generated by pgconflint_embed from knowledge/*.json. Do not edit.\n"
       "#include \"core/knowledge/catalog.h\"\n#include \"core/knowledge/catalog_data.h\"\n\n"
       "namespace pgconflint::generated {\nnamespace {\n";
  std::ostringstream catalogs;
  for (const auto& d : docs) {
    int major = d["major"];
    std::string pfx = "k" + std::to_string(major) + "_";
    std::vector<json> params(d["parameters"].begin(), d["parameters"].end());
    std::sort(params.begin(), params.end(), [](const json& a, const json& b) {
      return Lower(a["name"].get<std::string>()) < Lower(b["name"].get<std::string>());
    });
    std::ostringstream table;
    for (const auto& p : params) {
      std::string name = p["name"];
      table << "    " << ParameterEntry(o, p, pfx + Ident(name), majors[Lower(name)]) << ",\n";
    }
    o << "const Parameter " << pfx << "params[] = {\n" << table.str() << "};\n";
    // A static open-addressing hash of the lower-cased names (FNV-1a), so that
    // Catalog::Find builds nothing at start-up; catalog.cc hashes the same way.
    size_t slots = 1;
    while (slots < params.size() * 2) slots <<= 1;
    std::vector<int> hash(slots, 0);
    for (size_t i = 0; i < params.size(); ++i) {
      uint64_t h = 1469598103934665603ull;
      for (char c : Lower(params[i]["name"].get<std::string>())) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
      size_t slot = h & (slots - 1);
      while (hash[slot]) slot = (slot + 1) & (slots - 1);
      hash[slot] = static_cast<int>(i + 1);
    }
    o << "const uint16_t " << pfx << "hash[] = {";
    for (size_t i = 0; i < slots; ++i) o << (i % 32 ? "" : "\n    ") << hash[i] << ",";
    o << "};\n";
    o << "const Alias " << pfx << "aliases[] = {\n";
    size_t n_alias = 0;
    if (d.contains("aliases"))
      for (const auto& [k, v] : d["aliases"].items()) {
        o << "    {" << Lit(k) << ", " << Lit(v.get<std::string>()) << "},\n";
        ++n_alias;
      }
    if (n_alias == 0) o << "    {\"\", \"\"},\n";
    o << "};\n\n";
    const json b = d.value("build", json::object());
    std::string enc_span = "{}", tz_span = "{}";
    if (b.contains("encodings") && b["encodings"].is_object() && !b["encodings"].empty()) {
      o << "const HiddenEnumValue " << pfx << "encodings[] = {";
      for (const auto& [k, v] : b["encodings"].items()) o << "{" << Lit(k) << ", " << Lit(v.get<std::string>()) << "}, ";
      o << "};\n";
      enc_span = "std::span<const HiddenEnumValue>(" + pfx + "encodings)";
    }
    if (b.contains("timezone_sets") && b["timezone_sets"].is_array() && !b["timezone_sets"].empty()) {
      o << "const char* const " << pfx << "tzsets[] = {";
      for (const auto& v : b["timezone_sets"]) o << Lit(v.get<std::string>()) << ", ";
      o << "};\n";
      tz_span = "std::span<const char* const>(" + pfx + "tzsets)";
    }
    catalogs << "    Catalog(" << major << ", " << Lit(Str(d, "server_version")) << ", "
             << Lit(Str(d, "package")) << ", BuildInfo{" << b.value("block_size", 8192) << ", "
             << b.value("wal_block_size", 8192) << ", "
             << b.value("wal_segment_size", int64_t{16777216}) << ", "
             << b.value("max_identifier_length", 63) << ", " << enc_span << ", " << tz_span
             << "}, std::span<const Parameter>(" << pfx
             << "params), std::span<const Alias>(" << pfx << "aliases, " << n_alias << "), std::span<const uint16_t>("
             << pfx << "hash)),\n";
  }
  o << "}  // namespace\n\nconst Catalog kCatalogs[] = {\n" << catalogs.str() << "};\n"
    << "const size_t kCatalogCount = " << docs.size() << ";\nconst int kSupportedMajors[] = {";
  for (int m : list.list) o << m << ", ";
  o << "};\nconst int kDefaultMajor = " << list.default_major << ";\n\n}  // namespace pgconflint::generated\n";
  return o.str();
}

// knowledge/extensions/pg*.json -> the ExtensionCatalog tables
// (core/knowledge/extension_catalog.h), one per major, parameters through ParameterEntry.
std::string GenerateExtensions(const std::vector<json>& files, const Majors& list) {
  const std::vector<json> docs = InListOrder(files, list, "extensions");
  std::map<std::string, unsigned> majors = MajorBits(docs, list);
  std::ostringstream o, catalogs;
  o << "// Generated by pgconflint_embed from knowledge/extensions/*.json. Do not edit.\n"
       "#include \"core/knowledge/extension_catalog.h\"\n\nnamespace pgconflint::generated {\nnamespace {\n";
  for (const auto& d : docs) {
    int major = d["major"];
    std::string pfx = "kx" + std::to_string(major) + "_";
    std::map<std::string, int> module_index;
    std::ostringstream modules;
    int m = 0;
    for (const auto& mod : d["modules"]) {
      std::string name = mod["name"], id = pfx + "m" + std::to_string(m);
      module_index[name] = m++;
      o << "const char* const " << id << "_ext[] = {";
      for (const auto& e : mod["extensions"]) o << Lit(e.get<std::string>()) << ", ";
      o << "nullptr};\n";
      size_t n_prefixes = mod["prefixes"].size();
      o << "const ExtensionPrefix " << id << "_prefixes[] = {";
      for (const auto& [prefix, v] : mod["prefixes"].items()) {
        bool known = v.is_object();
        o << "{" << Lit(prefix) << ", " << (known && v.value("set_refused", false) ? "true" : "false") << ", "
          << (known && v.value("file_placeholder_kept", false) ? "true" : "false") << ", "
          << Lit(known ? Str(v, "file_warning") : "") << "}, ";
      }
      o << "{nullptr, false, false, nullptr}};\n";
      const json sl = mod["session_load"], sp = mod["shared_preload"];
      modules << "    {" << Lit(name) << ", " << (sl.value("accepted", false) ? "true" : "false") << ", "
              << Lit(Str(sl, "message")) << ", " << (sp.value("accepted", false) ? "true" : "false") << ", "
              << Lit(Str(sp, "message")) << ", std::span<const char* const>(" << id << "_ext, "
              << mod["extensions"].size() << "), std::span<const ExtensionPrefix>(" << id << "_prefixes, "
              << n_prefixes << ")},\n";
    }
    std::ostringstream params;
    for (const auto& p : d["parameters"]) {
      std::string name = p["name"];
      double per_unit = 0;
      const json& pts = p["shared_memory_points"];
      if (pts.is_array() && pts.size() == 2) {
        double dv = pts[1][0].get<double>() - pts[0][0].get<double>();
        double dm = pts[1][1].get<double>() - pts[0][1].get<double>();  // shared_memory_size is in MB
        if (dv > 0 && dm > 0) per_unit = dm * 1048576.0 / dv;
      }
      std::ostringstream amount;
      amount.precision(17);
      amount << per_unit;
      params << "    {" << ParameterEntry(o, p, pfx + Ident(name), majors[Lower(name)]) << ", "
             << module_index.at(p["module"].get<std::string>()) << ", "
             << (p.value("defined_by_load", false) ? "true" : "false") << ", " << amount.str() << "},\n";
    }
    o << "const ExtensionModule " << pfx << "modules[] = {\n" << modules.str() << "};\n";
    o << "const ExtensionParameter " << pfx << "params[] = {\n" << params.str()
      << "    {{}, -1, false, 0},\n};\n\n";
    catalogs << "    ExtensionCatalog(" << major << ", std::span<const ExtensionModule>(" << pfx
             << "modules), std::span<const ExtensionParameter>(" << pfx << "params, "
             << d["parameters"].size() << ")),\n";
  }
  o << "}  // namespace\n\nextern const ExtensionCatalog kExtensionCatalogs[];\nconst ExtensionCatalog "
       "kExtensionCatalogs[] = {\n" << catalogs.str() << "};\nextern const size_t kExtensionCatalogCount;\n"
       "const size_t kExtensionCatalogCount = " << docs.size() << ";\n\n}  // namespace pgconflint::generated\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, majors_file, rule_ids, storage, shared_memory;
  std::vector<std::string> knowledge, rules, texts, extensions;
  std::vector<std::string>* list = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
      list = nullptr;
    } else if (a == "--storage" && i + 1 < argc) {
      storage = argv[++i];
      list = nullptr;
    } else if (a == "--shared-memory" && i + 1 < argc) {
      shared_memory = argv[++i];
      list = nullptr;
    } else if (a == "--rule-ids" && i + 1 < argc) {
      rule_ids = argv[++i];
      list = nullptr;
    } else if (a == "--majors" && i + 1 < argc) {
      majors_file = argv[++i];
      list = nullptr;
    } else if (a == "--knowledge") {
      list = &knowledge;
    } else if (a == "--rules") {
      list = &rules;
    } else if (a == "--text") {
      list = &texts;
    } else if (a == "--extensions") {
      list = &extensions;
    } else if (list) {
      list->push_back(a);
    } else {
      std::cerr << "usage: pgconflint_embed --out DIR [--majors F] --knowledge F... [--extensions F...] "
                   "[--rules F... --rule-ids F] [--storage F] [--text F...] [--shared-memory F]\n";
      return 2;
    }
  }
  try {
    std::sort(knowledge.begin(), knowledge.end());
    std::sort(rules.begin(), rules.end());
    std::vector<json> docs = ReadKnowledge(knowledge);
    std::sort(extensions.begin(), extensions.end());
    std::vector<json> extension_docs = ReadKnowledge(extensions);
    std::vector<std::pair<std::string, std::string>> files;  // name in DIR, content
    if (!majors_file.empty()) {
      const Majors majors = ReadMajors(majors_file);
      files.emplace_back("knowledge_data.cc", GenerateKnowledge(docs, majors));
      files.emplace_back("extension_data.cc", GenerateExtensions(extension_docs, majors));
    }
    if (!rules.empty()) {
      if (rule_ids.empty()) throw std::runtime_error("--rules needs --rule-ids");
      std::string data;
      GenerateRules(rules, docs, rule_ids, &data);
      files.emplace_back("rules_data.cc", data);
    }
    if (!storage.empty()) files.emplace_back("storage_data.cc", GenerateStorage(storage));
    if (!shared_memory.empty()) files.emplace_back("shared_memory_data.cc", GenerateSharedMemory(shared_memory));
    if (!texts.empty()) {
      // Text files embedded verbatim (knowledge/storage.toml), parsed on use.
      std::string text_cc = "// Generated by pgconflint_embed. Do not edit.\nnamespace pgconflint::generated {\n";
      for (const std::string& f : texts) {
        std::string base = f.substr(f.rfind('/') + 1);
        text_cc += "extern const char k" + Ident(base) + "[];\nconst char k" + Ident(base) + "[] = " +
                   Lit(ReadText(f)) + ";\n";
      }
      text_cc += "}  // namespace pgconflint::generated\n";
      files.emplace_back("texts_data.cc", text_cc);
    }
    for (const auto& [name, content] : files)
      if (!WriteIfChanged(out + "/" + name, content)) {
        std::cerr << "pgconflint_embed: cannot write into " << out << "\n";
        return 1;
      }
  } catch (const std::exception& e) {
    std::cerr << "pgconflint_embed: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
