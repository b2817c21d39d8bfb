// knowledge/sql.json, embedded at build time and parsed on first use.
#include "core/knowledge/sql_knowledge.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "core/knowledge/catalog.h"

namespace pgconflint {

Parameter StorageOption::AsParameter() const {
  Parameter p{};
  p.name = name.c_str();
  p.type = type == Type::kBool ? VarType::kBool : type == Type::kInteger ? VarType::kInteger : VarType::kReal;
  p.context = Context::kUser;
  p.unit = p.category = p.short_desc = p.extra_desc = p.boot_val = p.file_message = p.alter_system_message = "";
  p.unit_kind = UnitKind::kNone;
  p.unit_amount = 1;
  p.min_val = min_text.c_str();
  p.max_val = max_text.c_str();
  p.min = min;
  p.max = max;
  p.in_pg_settings = p.file_accepted = p.alter_system_accepted = true;
  return p;
}

namespace generated {
extern const char ksql_json[];
}  // namespace generated

namespace {

using nlohmann::json;

void ReadKeywords(const json& j, std::unordered_map<std::string, KeywordCategory>* out) {
  static const std::pair<const char*, KeywordCategory> kCategories[] = {
      {"unreserved", KeywordCategory::kUnreserved},
      {"col_name", KeywordCategory::kColName},
      {"type_func_name", KeywordCategory::kTypeFuncName},
      {"reserved", KeywordCategory::kReserved},
  };
  for (const auto& [key, category] : kCategories)
    for (const json& w : j.at(key)) (*out)[w.get<std::string>()] = category;
}

StorageOption ReadStorageOption(const json& o) {
  static const std::pair<const char*, StorageOption::Type> kStorageOptionTypes[] = {
      {"boolean", StorageOption::Type::kBool},
      {"integer", StorageOption::Type::kInteger},
      {"real", StorageOption::Type::kReal},
      {"enum", StorageOption::Type::kEnum}};
  StorageOption t;
  t.name = o.at("name").get<std::string>();
  const std::string type = o.at("type").get<std::string>();
  auto it = std::find_if(std::begin(kStorageOptionTypes), std::end(kStorageOptionTypes),
                         [&](const auto& k) { return type == k.first; });
  if (it == std::end(kStorageOptionTypes))
    throw std::runtime_error("storage option " + t.name + ": unknown type " + type);
  t.type = it->second;
  if (t.type == StorageOption::Type::kInteger || t.type == StorageOption::Type::kReal) {
    t.min_text = o.at("min").get<std::string>();
    t.max_text = o.at("max").get<std::string>();
    t.min = strtod(t.min_text.c_str(), nullptr);
    t.max = strtod(t.max_text.c_str(), nullptr);
  }
  if (t.type == StorageOption::Type::kEnum) t.values = o.at("values").get<std::vector<std::string>>();
  return t;
}

}  // namespace

// Load fills the private members through this friend.
struct SqlFactsBuilder {
  static void Fill(int major, const json& m, SqlFacts* f) {
    f->major_ = major;
    ReadKeywords(m.at("keywords"), &f->keywords_);
    for (const auto& [name, message] : m.at("context_refused").items())
      f->refused_[AsciiLower(name)] = message.get<std::string>();
    if (m.contains("scoped_value_refused"))
      for (const auto& [name, values] : m.at("scoped_value_refused").items())
        for (const auto& [value, message] : values.items())
          f->scoped_refused_[AsciiLower(name) + '\x01' + AsciiLower(value)] = message.get<std::string>();
    if (m.contains("session_list_keywords"))
      for (const auto& [name, words] : m.at("session_list_keywords").items())
        f->session_list_keywords_[AsciiLower(name)] = words.get<std::vector<std::string>>();
    for (const json& n : m.at("list_quote")) f->list_quote_.insert(AsciiLower(n.get<std::string>()));
    for (const json& o : m.at("tablespace_options")) f->tablespace_options_.push_back(ReadStorageOption(o));
    if (m.contains("table_options"))
      for (const json& o : m.at("table_options")) f->table_options_.push_back(ReadStorageOption(o));
    for (std::vector<StorageOption>* options : {&f->tablespace_options_, &f->table_options_})
      std::sort(options->begin(), options->end(),
                [](const StorageOption& a, const StorageOption& b) { return a.name < b.name; });
    for (const auto& [key, message] : m.at("messages").items())
      if (message.is_string()) f->messages_[key] = message.get<std::string>();
    f->numeric_junk_ = m.at("numeric_junk").get<bool>();
    f->non_decimal_integers_ = m.at("non_decimal_integers").get<bool>();
    f->numeric_underscores_ = m.at("numeric_underscores").get<bool>();
  }
};

bool SqlFacts::Load(std::string_view text, std::vector<SqlFacts>* out, std::string* error) {
  try {
    json doc = json::parse(text);
    for (const auto& [major, m] : doc.at("majors").items()) {
      SqlFacts f;
      SqlFactsBuilder::Fill(atoi(major.c_str()), m, &f);
      out->push_back(std::move(f));
    }
  } catch (const std::exception& e) {
    *error = std::string("knowledge/sql.json: ") + e.what();
    return false;
  }
  return true;
}

const SqlFacts* SqlFacts::ForMajor(int major) {
  static std::once_flag once;
  static std::vector<SqlFacts>* all = nullptr;
  std::call_once(once, [] {
    all = new std::vector<SqlFacts>();
    std::string error;
    // The embedded file is checked by the tests; a broken one means no facts.
    if (!Load(generated::ksql_json, all, &error)) all->clear();
  });
  for (const SqlFacts& f : *all)
    if (f.major() == major) return &f;
  return nullptr;
}

KeywordCategory SqlFacts::Keyword(std::string_view word) const {
  auto it = keywords_.find(std::string(word));
  return it == keywords_.end() ? KeywordCategory::kNone : it->second;
}

const std::string& SqlFacts::ContextRefusal(std::string_view name) const {
  static const std::string kNone;
  auto it = refused_.find(AsciiLower(name));
  return it == refused_.end() ? kNone : it->second;
}

const std::string& SqlFacts::ScopedValueRefusal(std::string_view name, std::string_view value) const {
  static const std::string kNone;
  auto it = scoped_refused_.find(AsciiLower(name) + '\x01' + AsciiLower(value));
  return it == scoped_refused_.end() ? kNone : it->second;
}

const std::vector<std::string>& SqlFacts::SessionListKeywords(std::string_view name) const {
  static const std::vector<std::string> kNone;
  auto it = session_list_keywords_.find(AsciiLower(name));
  return it == session_list_keywords_.end() ? kNone : it->second;
}

bool SqlFacts::ListQuote(std::string_view name) const { return list_quote_.count(AsciiLower(name)) > 0; }

namespace {

const StorageOption* FindOption(const std::vector<StorageOption>& options, std::string_view name) {
  auto it = std::lower_bound(options.begin(), options.end(), name,
                             [](const StorageOption& o, std::string_view n) { return o.name < n; });
  return it != options.end() && it->name == name ? &*it : nullptr;
}

}  // namespace

const StorageOption* SqlFacts::FindTablespaceOption(std::string_view name) const {
  return FindOption(tablespace_options_, name);
}

const StorageOption* SqlFacts::FindTableOption(std::string_view name) const { return FindOption(table_options_, name); }

bool SqlFacts::HasMessage(std::string_view key) const { return messages_.find(key) != messages_.end(); }

std::string SqlFacts::Message(std::string_view key, const std::map<std::string, std::string>& values) const {
  auto it = messages_.find(key);
  if (it == messages_.end()) return "";
  std::string out;
  const std::string& t = it->second;
  for (size_t i = 0; i < t.size(); ++i) {
    size_t close = t[i] == '{' ? t.find('}', i) : std::string::npos;
    if (close != std::string::npos) {
      auto v = values.find(t.substr(i + 1, close - i - 1));
      if (v != values.end()) {
        out += v->second;
        i = close;
        continue;
      }
    }
    out += t[i];
  }
  return out;
}

}  // namespace pgconflint
