// Reading snapshots: bad files are errors with a message, never crashes.
#include "core/snapshot.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(SnapshotTest, RefusesWhatIsNotASnapshot) {
  Snapshot s;
  std::string error;
  EXPECT_FALSE(ReadSnapshot("not json", &s, &error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"x\": 1}", &s, &error));
  EXPECT_NE(error.find("pgconflint_snapshot"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"pgconflint_snapshot\": 99}", &s, &error));
  EXPECT_NE(error.find("99"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"pgconflint_snapshot\": 1, \"info\": {}}", &s, &error));
  EXPECT_NE(error.find("server_version_num"), std::string::npos) << error;
}

TEST(SnapshotTest, ReadsWhatARoleCouldSee) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "server": "u@h:5432/d",
      "info": {"server_version_num": 170002, "server_version": "17.2", "user": "u", "superuser": false,
               "pg_read_all_settings": true, "pg_monitor": true},
      "settings": [{"name": "work_mem", "setting": "4096", "unit": "kB", "source": "default",
                    "pending_restart": false}],
      "file_settings": null, "db_role_settings": [], "tablespaces": [], "databases": [],
      "hba_rules": null})",
                           &s, &error))
      << error;
  EXPECT_EQ(s.major(), 17);
  EXPECT_EQ(s.server, "u@h:5432/d");
  EXPECT_FALSE(s.file_settings.has_value());
  ASSERT_NE(s.Setting("work_mem"), nullptr);
  EXPECT_EQ(s.Setting("work_mem")->setting, "4096");
}

// Wrong types where values belong are read as absent, not thrown.
TEST(SnapshotTest, WrongTypesDoNotThrow) {
  Snapshot s;
  std::string error;
  EXPECT_NO_THROW(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 160000},
      "settings": [1, "x", {"name": 2}], "file_settings": {"a": 1}, "db_role_settings": "x",
      "tablespaces": [{"name": null, "options": 3}]})",
                               &s, &error));
}

}  // namespace
}  // namespace pgconflint
