// The parts of pgconflint_embed (the build-time generator, embed.cc): the
// helpers they share (embed_common.cc), the rules part (embed_rules.cc) and
// the storage facts (embed_storage.cc) and the shared memory facts
// (embed_shared_memory.cc).
#ifndef PGCONFLINT_GEN_EMBED_H_
#define PGCONFLINT_GEN_EMBED_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pgconflint::embed {

/// A C++ string literal for arbitrary bytes.
std::string Lit(const std::string& s);
/// A double as a C++ literal that reads back the same value (17 digits).
std::string Num(double d);
/// `j[key]` as text: a string as is, null or absent as "", anything else as JSON.
std::string Str(const nlohmann::json& j, const char* key);
std::string Lower(std::string s);
/// `s` with every character that is not a letter or digit replaced by '_'.
std::string Ident(std::string s);
/// Writes `content` to `path` through a temporary file, unless it holds it
/// already (so that a rebuild stays incremental). False on a write error.
bool WriteIfChanged(const std::string& path, const std::string& content);
/// The bytes of `path`; throws std::runtime_error if it cannot be read.
std::string ReadText(const std::string& path);

/// rules/*.toml `files`, validated with the parameter names of `knowledge`
/// (knowledge/pg*.json) and the RuleId values of `ids_file`, as the text of
/// rules_data.cc. Throws std::runtime_error with the reason.
void GenerateRules(const std::vector<std::string>& files, const std::vector<nlohmann::json>& knowledge,
                   const std::string& ids_file, std::string* data);

/// knowledge/storage.toml `file`, checked by ParseStorageFacts, as the text of
/// storage_data.cc (BuiltinStorageFacts()). Throws std::runtime_error.
std::string GenerateStorage(const std::string& file);

/// knowledge/shared_memory.json `file` as the text of shared_memory_data.cc
/// (ShmemFactsFor()). Throws std::runtime_error.
std::string GenerateSharedMemory(const std::string& file);

}  // namespace pgconflint::embed

#endif  // PGCONFLINT_GEN_EMBED_H_
