#include "engines/common/json.h"

#include <gtest/gtest.h>

#include "engines/common/errors.h"

namespace sb {
namespace {

TEST(Json, ParsesNestedDocumentAndDumpsCanonically) {
  Json j = Json::parse(R"({"b": [1, 2.5, true, null], "a": {"s": "x\ny\u00e9"}})");
  EXPECT_EQ(j.dump(), "{\"a\":{\"s\":\"x\\ny\xc3\xa9\"},\"b\":[1,2.5,true,null]}");
  EXPECT_EQ(j.at("b").as_array().size(), 4u);
  EXPECT_EQ(j.at("a").at("s").as_string(), "x\ny\xc3\xa9");
  EXPECT_EQ(Json::parse(j.dump()), j);
}

TEST(Json, RoundTripsIntegersWithoutDecimals) {
  Json j = Json::object();
  j["n"] = 42;
  j["f"] = 0.5;
  EXPECT_EQ(j.dump(), R"({"f":0.5,"n":42})");
}

TEST(Json, ErrorsNameSourceLineAndColumn) {
  try {
    Json::parse("{\n  \"a\": 1,\n  \"b\" 2\n}", "config.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "config.json:3:7: expected ':'");
  }
}

TEST(Json, RejectsMalformedInput) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\":}", "01", "1.", "\"abc", "tru", "[1] x", "\"\\x\"", "nan",
                          "\"\\ud800\""}) {
    EXPECT_THROW(Json::parse(bad), InputError) << bad;
  }
}

TEST(Json, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_THROW(Json::parse(deep), InputError);
}

TEST(Json, WrongTypeAccessThrowsInputError) {
  Json j = Json::parse("{\"a\": \"x\"}");
  EXPECT_THROW(j.at("a").as_int(), InputError);
  EXPECT_THROW(j.at("missing"), InputError);
  EXPECT_THROW(Json(1.5).as_int(), InputError);
}

}  // namespace
}  // namespace sb
