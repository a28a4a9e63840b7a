#include "engines/common/options.h"

#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "engines/common/squares.h"

namespace sb {
namespace {

TEST(OptionReader, ReadsValuesAndDefaults) {
  OptionReader r(Json::parse(R"({"flying": false, "limit": 50, "mode": "always"})"), "morris9");
  EXPECT_FALSE(r.get_bool("flying", true));
  EXPECT_EQ(r.get_int("limit", 100, 1, 1000), 50);
  EXPECT_EQ(r.get_choice("mode", "x", {"x", "always"}), "always");
  EXPECT_TRUE(r.get_bool("absent", true));
  EXPECT_NO_THROW(r.finish());
}

TEST(OptionReader, UnknownKeyIsAnError) {
  OptionReader r(Json::parse(R"({"flyng": false})"), "morris9");
  r.get_bool("flying", true);
  try {
    r.finish();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "morris9 rule options: unknown option 'flyng'");
  }
}

TEST(OptionReader, WrongTypesAndRangesAreErrors) {
  OptionReader r(Json::parse(R"({"a": 1, "b": 5000, "c": "z", "d": 1.5})"), "g");
  EXPECT_THROW(r.get_bool("a", true), InputError);
  EXPECT_THROW(r.get_int("b", 1, 1, 100), InputError);
  EXPECT_THROW(r.get_choice("c", "x", {"x", "y"}), InputError);
  EXPECT_THROW(r.get_int("d", 1, 0, 10), InputError);
  EXPECT_THROW(OptionReader(Json::parse("[1]"), "g"), InputError);
}

TEST(Squares, AlgebraicNamesRoundTrip) {
  EXPECT_EQ(algebraic(0, 0), "a1");
  EXPECT_EQ(algebraic(10, 11), "k12");
  auto fr = parse_algebraic("k12", 11, 12);
  ASSERT_TRUE(fr);
  EXPECT_EQ(*fr, (FileRank{10, 11}));
  EXPECT_FALSE(parse_algebraic("l1", 11, 12));
  EXPECT_FALSE(parse_algebraic("a13", 11, 12));
  EXPECT_FALSE(parse_algebraic("a0", 11, 12));
  EXPECT_FALSE(parse_algebraic("a01", 11, 12));
  EXPECT_FALSE(parse_algebraic("", 11, 12));
}

}  // namespace
}  // namespace sb
