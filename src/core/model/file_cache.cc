// The FileCache of settings_source.h: each file is read through the
// workspace's FileSystem and parsed once, then shared by every root and every
// include of it until the workspace forgets it.
#include "core/model/settings_source.h"

namespace pgconflint {

std::shared_ptr<const FileCache::Entry> FileCache::Get(const std::string& abs_path, ReadStatus* status,
                                                       std::string* error) {
  auto it = entries_.find(abs_path);
  if (it != entries_.end()) {
    *status = ReadStatus::kOk;
    return it->second;
  }
  SharedText text;
  if (auto t = texts_.find(abs_path); t != texts_.end()) {
    text = std::move(t->second);
    texts_.erase(t);
    *status = ReadStatus::kOk;
  } else {
    *status = fs_.ReadShared(abs_path, &text, error);
    if (*status != ReadStatus::kOk) return nullptr;
  }
  auto entry = std::make_shared<Entry>(SourceFile(abs_path, std::move(text)));
  if (forgotten_ && forgotten_->source.path() == abs_path) {
    entry->parsed = Reparse(forgotten_->parsed, forgotten_->text, entry->text);
    forgotten_.reset();
  } else {
    entry->parsed = Parse(entry->source);
  }
  entries_[abs_path] = entry;
  return entry;
}

void FileCache::Forget(const std::string& abs_path) {
  if (auto e = entries_.find(abs_path); e != entries_.end()) {
    forgotten_ = std::move(e->second);
    entries_.erase(e);
  }
  texts_.erase(abs_path);
}

SharedText FileCache::Held(const std::string& abs_path) const {
  if (auto e = entries_.find(abs_path); e != entries_.end()) return e->second->source.shared_text();
  if (auto t = texts_.find(abs_path); t != texts_.end()) return t->second;
  return nullptr;
}

SharedText FileCache::Text(const std::string& abs_path) {
  if (SharedText held = Held(abs_path)) return held;
  SharedText text;
  std::string error;
  if (fs_.ReadShared(abs_path, &text, &error) != ReadStatus::kOk) return nullptr;
  return texts_[abs_path] = std::move(text);
}

}  // namespace pgconflint
