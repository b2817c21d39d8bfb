// Parameters, encodings, positions and URIs.
#include "lsp/protocol.h"

#include <algorithm>

#include "core/base/file_system.h"
#include "core/base/source_file.h"
#include "core/base/uri.h"

namespace pgconflint::lsp {
namespace {

[[noreturn]] void Mistyped(const char* key, const char* expected) {
  throw RpcError(kInvalidParams, std::string(key) + ": expected " + expected);
}

const json& Member(const json& parent, const char* key, json::value_t type, const char* expected) {
  if (!parent.is_object()) Mistyped(key, expected);
  auto it = parent.find(key);
  if (it == parent.end() || it->type() != type) Mistyped(key, expected);
  return *it;
}

// A position component: an integer (a negative one clamps to 0, a huge one
// to the end).
uint32_t Component(const json& position, const char* key) {
  if (!position.is_object()) Mistyped("position", "an object");
  auto it = position.find(key);
  if (it == position.end() || !it->is_number_integer()) Mistyped(key, "an integer");
  if (it->is_number_unsigned()) return static_cast<uint32_t>(std::min<uint64_t>(it->get<uint64_t>(), UINT32_MAX - 1));
  int64_t v = it->get<int64_t>();
  return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, UINT32_MAX - 1));
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const json& Object(const json& parent, const char* key) {
  return Member(parent, key, json::value_t::object, "an object");
}

std::string String(const json& parent, const char* key) {
  return Member(parent, key, json::value_t::string, "a string").get<std::string>();
}

int64_t Integer(const json& parent, const char* key) {
  if (!parent.is_object()) Mistyped(key, "an integer");
  auto it = parent.find(key);
  if (it == parent.end() || !it->is_number_integer()) Mistyped(key, "an integer");
  if (it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
  return it->get<int64_t>();
}

const json& Array(const json& parent, const char* key) {
  return Member(parent, key, json::value_t::array, "an array");
}

const json* Find(const json& parent, const char* key) {
  if (!parent.is_object()) return nullptr;
  auto it = parent.find(key);
  return it == parent.end() || it->is_null() ? nullptr : &*it;
}

std::string StringOr(const json& parent, const char* key, const std::string& fallback) {
  const json* v = Find(parent, key);
  return v && v->is_string() ? v->get<std::string>() : fallback;
}

ColumnUnit EncodingUnit(std::string_view encoding) {
  if (encoding == "utf-8") return ColumnUnit::kUtf8;
  if (encoding == "utf-32") return ColumnUnit::kCodePoint;
  return ColumnUnit::kUtf16;
}

const char* EncodingName(ColumnUnit unit) {
  switch (unit) {
    case ColumnUnit::kUtf8: return "utf-8";
    case ColumnUnit::kCodePoint: return "utf-32";
    default: return "utf-16";
  }
}

ColumnUnit NegotiateEncoding(const json& capabilities) {
  const json* offered = nullptr;
  if (const json* general = Find(capabilities, "general")) offered = Find(*general, "positionEncodings");
  if (!offered) offered = Find(capabilities, "offsetEncoding");
  if (!offered || !offered->is_array()) return ColumnUnit::kUtf16;
  for (const char* preferred : {"utf-8", "utf-32", "utf-16"})
    for (const json& e : *offered)
      if (e.is_string() && e.get<std::string>() == preferred) return EncodingUnit(preferred);
  return ColumnUnit::kUtf16;
}

json PositionJson(const SourceFile& file, uint32_t offset, ColumnUnit unit) {
  Position p = file.PositionOf(offset, unit);
  return {{"line", p.line - 1}, {"character", p.column - 1}};
}

json RangeJson(const SourceFile& file, Range range, ColumnUnit unit) {
  return {{"start", PositionJson(file, range.begin, unit)}, {"end", PositionJson(file, range.end, unit)}};
}

uint32_t OffsetOfPosition(const SourceFile& file, const json& position, ColumnUnit unit) {
  uint32_t line = Component(position, "line"), character = Component(position, "character");
  return file.OffsetOf({line + 1, character + 1}, unit);
}

Range RangeOf(const SourceFile& file, const json& range, ColumnUnit unit) {
  uint32_t a = OffsetOfPosition(file, Object(range, "start"), unit);
  uint32_t b = OffsetOfPosition(file, Object(range, "end"), unit);
  return {std::min(a, b), std::max(a, b)};
}

std::string PathToUri(const std::string& path) { return "file://" + PercentEncodePath(path); }

bool UriToPath(std::string_view uri, std::string* path) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size() || !std::equal(kScheme.begin(), kScheme.end(), uri.begin(), [](char a, char b) {
        return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b);
      }))
    return false;
  uri.remove_prefix(kScheme.size());
  // "file://localhost/x" names this host; any other host is not a local path.
  if (uri.substr(0, 10) == "localhost/") uri.remove_prefix(9);
  if (uri.empty() || uri[0] != '/') return false;
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '?' || uri[i] == '#') break;
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    int hi = i + 2 < uri.size() ? HexValue(uri[i + 1]) : -1, lo = hi >= 0 ? HexValue(uri[i + 2]) : -1;
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  // A NUL cannot be in a path.
  if (out.find('\0') != std::string::npos) return false;
  *path = CanonicalizePath(out);
  return true;
}

bool ClientSupports(const json& capabilities, std::initializer_list<const char*> path) {
  const json* at = &capabilities;
  for (const char* key : path)
    if (!(at = Find(*at, key))) return false;
  return at->is_boolean() && at->get<bool>();
}

bool ActionKindWanted(const json* only, std::string_view kind) {
  if (!only || !only->is_array()) return true;
  if (kind.empty()) return false;
  for (const json& k : *only) {
    if (!k.is_string()) continue;
    const std::string& asked = k.get_ref<const std::string&>();
    if (kind == asked || (kind.starts_with(asked) && kind.size() > asked.size() && kind[asked.size()] == '.'))
      return true;
  }
  return false;
}

std::string Dump(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_) out_ += ',';
  first_ = false;
}

JsonWriter& JsonWriter::Open(char c) {
  Separate();
  out_ += c;
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  out_ += c;
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  String(key);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  Separate();
  out_ += '"';
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const long n = Utf8Sequence(s, i);
      if (n > 0) out_.append(s.substr(i, static_cast<size_t>(n)));
      else out_ += "\xEF\xBF\xBD";  // U+FFFD for the ill-formed bytes, as Dump
      i += static_cast<size_t>(n > 0 ? n : -n);
      continue;
    }
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default:
        if (c < 0x20) {
          out_ += "\\u00";
          out_ += kHex[c >> 4];
          out_ += kHex[c & 15];
        } else {
          out_ += static_cast<char>(c);
        }
    }
    ++i;
  }
  out_ += '"';
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  Separate();
  out_ += std::to_string(value);
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json_text) {
  Separate();
  out_.append(json_text);
  return *this;
}

JsonWriter& JsonWriter::Position(const SourceFile& file, uint32_t offset, ColumnUnit unit) {
  pgconflint::Position p = file.PositionOf(offset, unit);
  return BeginObject().Key("character").Int(p.column - 1).Key("line").Int(p.line - 1).EndObject();
}

JsonWriter& JsonWriter::Range(const SourceFile& file, pgconflint::Range range, ColumnUnit unit) {
  BeginObject().Key("end");
  Position(file, range.end, unit).Key("start");
  return Position(file, range.begin, unit).EndObject();
}

}  // namespace pgconflint::lsp
