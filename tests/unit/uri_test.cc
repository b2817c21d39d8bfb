// Percent-encoding of paths: unreserved characters and "/" stay, every other
// byte (spaces, "%", "#", UTF-8) becomes %XX.
#include "core/base/uri.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(UriTest, PercentEncodesAllButUnreservedAndSlash) {
  EXPECT_EQ(PercentEncodePath("/srv/pg-18/data_1/postgresql.conf~"), "/srv/pg-18/data_1/postgresql.conf~");
  EXPECT_EQ(PercentEncodePath("a b/c%d#e?f"), "a%20b/c%25d%23e%3Ff");
  EXPECT_EQ(PercentEncodePath("caf\xC3\xA9"), "caf%C3%A9");
  EXPECT_EQ(PercentEncodePath(std::string_view("\x00\x7F", 2)), "%00%7F");
  EXPECT_EQ(PercentEncodePath(""), "");
}

}  // namespace
}  // namespace pgconflint
