// The storage types of the built-in storage facts (generated at build time
// from knowledge/storage.toml: storage_data.cc), by name and position.
#include "core/knowledge/storage_facts.h"

namespace pgconflint {

std::optional<Storage> Storage::Named(std::string_view name) {
  const std::vector<StorageType>& types = BuiltinStorageFacts().types;
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].name == name) return Storage(static_cast<int>(i));
  return std::nullopt;
}

std::vector<Storage> Storage::All() {
  std::vector<Storage> all;
  for (size_t i = 0; i < BuiltinStorageFacts().types.size(); ++i) all.push_back(Storage(static_cast<int>(i)));
  return all;
}

std::string StorageName(Storage s) { return s.name(); }

bool ParseStorage(const std::string& s, Storage* out) {
  std::optional<Storage> found = Storage::Named(s);
  if (found) *out = *found;
  return found.has_value();
}

}  // namespace pgconflint
