// What live mode prints of a connection string: never a password.
#include "live/live.h"

#include <gtest/gtest.h>

namespace pgconflint::live {
namespace {

TEST(LiveTest, MaskConninfoHidesPasswordsInKeyValueStrings) {
  EXPECT_EQ(MaskConninfo("host=db port=5432 user=app password=s3cret dbname=x"),
            "host=db port=5432 user=app password=***** dbname=x");
  EXPECT_EQ(MaskConninfo("host=db password = 'a b\\' c' sslpassword=k"), "host=db password = ***** sslpassword=*****");
  EXPECT_EQ(MaskConninfo("host=db sslmode=verify-full sslrootcert=/etc/ca.pem"),
            "host=db sslmode=verify-full sslrootcert=/etc/ca.pem");
}

TEST(LiveTest, MaskConninfoHidesPasswordsInUris) {
  EXPECT_EQ(MaskConninfo("postgresql://app:s3cret@db:5432/x?sslmode=require"),
            "postgresql://app:*****@db:5432/x?sslmode=require");
  EXPECT_EQ(MaskConninfo("postgres://db/x?user=app&password=s3cret&sslmode=require"),
            "postgres://db/x?user=app&password=*****&sslmode=require");
  EXPECT_EQ(MaskConninfo("postgresql://app@db/x"), "postgresql://app@db/x");
}

TEST(LiveTest, UnreachableServerIsAnErrorWithoutThePassword) {
  LibpqSnapshotTaker taker({1, 1000});
  std::string json, label, error;
  EXPECT_FALSE(taker.Take("host=127.0.0.1 port=1 user=x password=s3cret connect_timeout=1", &json, &label, &error));
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
  EXPECT_EQ(label.find("s3cret"), std::string::npos) << label;
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace pgconflint::live
