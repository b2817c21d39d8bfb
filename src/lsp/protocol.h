// LSP vocabulary shared by the server's files: error codes, reading
// parameters out of a message (a missing or mistyped one is an RpcError, never
// a crash), URIs, and positions. Positions are bytes inside pgconflint; LSP
// counts lines from 0 and characters in the negotiated encoding (UTF-16 unless
// the client offers another), and this file converts between the two through
// SourceFile, the one place that maps bytes to columns.
#ifndef PGCONFLINT_LSP_PROTOCOL_H_
#define PGCONFLINT_LSP_PROTOCOL_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/base/source_file.h"

namespace pgconflint::lsp {

using json = nlohmann::json;

/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
  kRequestCancelled = -32800,
};

/// An error answer to a request, thrown by a handler and caught where the
/// message is dispatched.
struct RpcError : std::runtime_error {
  RpcError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
  int code;
};

/// params[key] as an object, string, integer or array: RpcError kInvalidParams
/// ("params.textDocument.uri: expected a string") when missing or mistyped.
const json& Object(const json& parent, const char* key);
std::string String(const json& parent, const char* key);
int64_t Integer(const json& parent, const char* key);
const json& Array(const json& parent, const char* key);
/// Whether the boolean at `path` in a capabilities object is true (false
/// when a key is missing or the value is not a boolean).
bool ClientSupports(const json& capabilities, std::initializer_list<const char*> path);

/// Does a codeAction request's context.only (null when absent) ask for actions
/// of `kind`: the kind itself or a parent of it ("source" asks for
/// "source.fixAll.pgconflint")? An action without a kind (`kind` empty) only
/// when the request names no kinds.
bool ActionKindWanted(const json* only, std::string_view kind);
/// params[key] when present and of the type, else nullptr / the default.
const json* Find(const json& parent, const char* key);
std::string StringOr(const json& parent, const char* key, const std::string& fallback);

/// The position encodings of LSP 3.17 and the column units they count.
ColumnUnit EncodingUnit(std::string_view encoding);  // "utf-8", "utf-16", "utf-32"; else UTF-16
const char* EncodingName(ColumnUnit unit);

/// The encoding the server uses, chosen from what the client offers (its
/// general.positionEncodings, or clangd's offsetEncoding extension): UTF-8
/// (pgconflint's own unit), then UTF-32, then UTF-16; UTF-16 when it offers
/// nothing the server knows.
ColumnUnit NegotiateEncoding(const json& client_capabilities);

/// An LSP Position for byte `offset` of `file`.
json PositionJson(const SourceFile& file, uint32_t offset, ColumnUnit unit);
/// An LSP Range for bytes [begin, end) of `file`.
json RangeJson(const SourceFile& file, Range range, ColumnUnit unit);
/// The byte offset of an LSP Position, clamped to the text (a negative line
/// or character counts as 0). RpcError when it is not a Position.
uint32_t OffsetOfPosition(const SourceFile& file, const json& position, ColumnUnit unit);
/// The bytes of an LSP Range, clamped; an end before the start is swapped
/// with it (as editors' text-document libraries do).
Range RangeOf(const SourceFile& file, const json& range, ColumnUnit unit);

/// A file:// URI for an absolute path, percent-encoded.
std::string PathToUri(const std::string& path);
/// The absolute path of a file:// URI, or false (another scheme, a host, a
/// relative or malformed path).
bool UriToPath(std::string_view uri, std::string* path);

/// A JSON value dumped as a message body: invalid UTF-8 (from a file's bytes)
/// becomes U+FFFD instead of an exception.
std::string Dump(const json& message);

/// JSON text written directly, without a tree: for what the server writes
/// most often (the diagnostics of every edit), where building a json value
/// and dumping it cost more than the lint. Strings are escaped as Dump does,
/// an invalid UTF-8 byte becoming U+FFFD. The caller writes a well-formed
/// document (Key only inside an object).
class JsonWriter {
 public:
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  /// A value already written as JSON text.
  JsonWriter& Raw(std::string_view json_text);
  /// An LSP Position / Range of `file`, as PositionJson and RangeJson give them.
  JsonWriter& Position(const SourceFile& file, uint32_t offset, ColumnUnit unit);
  JsonWriter& Range(const SourceFile& file, pgconflint::Range range, ColumnUnit unit);
  std::string Take() { return std::move(out_); }

 private:
  JsonWriter& Open(char c);
  JsonWriter& Close(char c);
  void Separate();  // a comma before a value that is not the first of its object or array
  std::string out_;
  bool first_ = true;  // no value written yet in the innermost object or array
  bool after_key_ = false;
};

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_LSP_PROTOCOL_H_
