#include "core/sql/library_path.h"

namespace pgconflint {

std::optional<LoadFailure> LibraryPathFailure(const SqlFacts& facts, std::string_view library, std::string_view path) {
  if (library.find('/') != std::string_view::npos || !facts.HasMessage("library_path_relative")) return std::nullopt;
  if (path.empty())
    return LoadFailure{facts.Message("library_missing", {{"name", std::string(library)}}),
                       "the session's dynamic_library_path is empty, so no directory is searched"};
  const bool suffixed = library.size() > 3 && library.substr(library.size() - 3) == ".so";
  const std::string shown = "the session's dynamic_library_path is '" + std::string(path) + "'";
  for (size_t begin = 0;;) {
    const size_t colon = path.find(':', begin);
    const std::string_view dir = path.substr(begin, colon == std::string_view::npos ? colon : colon - begin);
    if (dir.empty()) return LoadFailure{facts.Message("library_path_empty"), shown + " (an empty directory)"};
    if (dir[0] == '$' && dir.substr(0, dir.find('/')) != "$libdir")
      return LoadFailure{facts.Message("library_path_macro", {{"value", std::string(dir)}}),
                         shown + " (only $libdir is a macro)"};
    if (dir[0] != '$' && dir[0] != '/')
      return LoadFailure{facts.Message("library_path_relative"), shown + " ('" + std::string(dir) + "' is relative)"};
    if (suffixed || colon == std::string_view::npos) return std::nullopt;  // found here, or not at all: files decide
    begin = colon + 1;
  }
}

}  // namespace pgconflint
