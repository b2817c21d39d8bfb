// A temporary directory on the real disk, removed with everything in it when
// the object goes: for the tests that need what only a disk has (FIFOs,
// devices, symbolic links, sparse files).
#ifndef PGCONFLINT_TESTS_UNIT_REAL_DIR_H_
#define PGCONFLINT_TESTS_UNIT_REAL_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace pgconflint {

class RealDir {
 public:
  RealDir() {
    char tmpl[] = "/tmp/pgconflint-test-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~RealDir() { std::filesystem::remove_all(path_); }
  RealDir(const RealDir&) = delete;
  RealDir& operator=(const RealDir&) = delete;

  /// Writes `text` at `rel` (its directories created); returns the absolute path.
  std::string Write(const std::string& rel, const std::string& text) const {
    std::string p = path_ + "/" + rel;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  /// A symbolic link at `rel` pointing at `target` (as written); returns its path.
  std::string Link(const std::string& rel, const std::string& target) const {
    std::string p = path_ + "/" + rel;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::filesystem::create_symlink(target, p);
    return p;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_TESTS_UNIT_REAL_DIR_H_
