// scripts/snapshot.sql (psql alone) runs pgconflint's own snapshot queries
// word for word, so that its JSON is the libpq snapshot's.
#include "live/queries.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace pgconflint::live {
namespace {

std::string ReadScript() {
  std::ifstream in(std::string(PGC_SOURCE_DIR) + "/scripts/snapshot.sql");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(QueriesTest, SnapshotScriptRunsEveryQueryWordForWord) {
  const std::string script = ReadScript();
  ASSERT_FALSE(script.empty());
  std::string document = "SELECT json_build_object('pgconflint_snapshot', 1, 'server', ";
  ASSERT_NE(script.find(document), std::string::npos);
  for (const SnapshotQuery& q : SnapshotQueries()) {
    const std::string key = q.key;
    EXPECT_NE(script.find("SELECT (" + std::string(q.sql) + ") AS pgc_" + key + " \\gset\n"), std::string::npos)
        << key;
    if (q.visibility) {
      const std::string guard = "SELECT (" + std::string(q.visibility) + ") AS pgc_visible \\gset\n\\if :pgc_visible\n";
      EXPECT_NE(script.find(guard), std::string::npos) << key;
      EXPECT_NE(script.find("\\set pgc_" + key + " null\n"), std::string::npos) << key;
    }
    EXPECT_NE(script.find("'" + key + "', :'pgc_" + key + "'::json"), std::string::npos) << key;
  }
}

TEST(QueriesTest, InfoComesFirst) { EXPECT_STREQ(SnapshotQueries()[0].key, "info"); }

}  // namespace
}  // namespace pgconflint::live
