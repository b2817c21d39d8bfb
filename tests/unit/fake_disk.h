// The tests' file system: files in memory (an OverlayFileSystem without a
// base disk), written with paths relative to a project directory.
#ifndef PGCONFLINT_TESTS_UNIT_FAKE_DISK_H_
#define PGCONFLINT_TESTS_UNIT_FAKE_DISK_H_

#include <string>

#include "core/base/file_system.h"

namespace pgconflint {

class FakeDisk {
 public:
  explicit FakeDisk(std::string dir = "/project") : dir_(dir), fs_(nullptr, std::move(dir)) {}
  /// Writes `text` at `rel` (relative to the project directory); returns the absolute path.
  std::string Write(const std::string& rel, const std::string& text) {
    std::string abs = rel[0] == '/' ? rel : dir_ + "/" + rel;
    fs_.Set(abs, text);
    return abs;
  }
  const std::string& dir() const { return dir_; }
  OverlayFileSystem& fs() { return fs_; }

 private:
  std::string dir_;
  OverlayFileSystem fs_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_TESTS_UNIT_FAKE_DISK_H_
