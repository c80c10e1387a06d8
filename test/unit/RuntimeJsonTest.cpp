// The runtime's strict JSON reader: what it accepts and the errors it gives.
#include "gemmc/runtime/Json.h"

#include <gtest/gtest.h>

using gemmc::rt::JsonValue;
using gemmc::rt::parseJson;

namespace {

JsonValue parseOk(const std::string &text) {
  JsonValue v;
  std::string err;
  EXPECT_TRUE(parseJson(text, v, err)) << text << " -> " << err;
  return v;
}

std::string parseErr(const std::string &text) {
  JsonValue v;
  std::string err;
  EXPECT_FALSE(parseJson(text, v, err)) << text;
  return err;
}

TEST(RuntimeJson, Scalars) {
  EXPECT_TRUE(parseOk("null").isNull());
  EXPECT_TRUE(parseOk("true").asBool());
  EXPECT_FALSE(parseOk(" false ").asBool());
  JsonValue n = parseOk("-42");
  EXPECT_TRUE(n.isInteger());
  EXPECT_EQ(n.asInt(), -42);
  JsonValue d = parseOk("1.5e3");
  EXPECT_TRUE(d.isNumber());
  EXPECT_FALSE(d.isInteger());
  EXPECT_DOUBLE_EQ(d.asDouble(), 1500.0);
  EXPECT_EQ(parseOk("\"a\\n\\u00e9\\ud83d\\ude00\"").asString(), "a\n\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(RuntimeJson, NestedKeepsOrder) {
  JsonValue v = parseOk(R"({"b": [1, 2, {"c": []}], "a": {}})");
  ASSERT_TRUE(v.isObject());
  ASSERT_EQ(v.members().size(), 2u);
  EXPECT_EQ(v.members()[0].first, "b");
  EXPECT_EQ(v.find("b")->items().size(), 3u);
  EXPECT_TRUE(v.find("b")->items()[2].find("c")->isArray());
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_EQ(v.dump(), R"({"b": [1, 2, {"c": []}], "a": {}})");
}

TEST(RuntimeJson, HugeIntegerIsANumberNotAnInteger) {
  JsonValue v = parseOk("123456789012345678901234567890");
  EXPECT_TRUE(v.isNumber());
  EXPECT_FALSE(v.isInteger());
}

TEST(RuntimeJson, RejectsTrailingComma) {
  EXPECT_NE(parseErr("[1, 2,]").find("trailing comma in array"), std::string::npos);
  EXPECT_NE(parseErr("{\"a\": 1,}").find("trailing comma in object"), std::string::npos);
}

TEST(RuntimeJson, RejectsDuplicateKeysWithPosition) {
  std::string e = parseErr("{\"a\": 1,\n \"a\": 2}");
  EXPECT_NE(e.find("duplicate key \"a\""), std::string::npos) << e;
  EXPECT_EQ(e.rfind("line 2, column 2", 0), 0u) << e;
}

TEST(RuntimeJson, RejectsCommentsAndGarbage) {
  EXPECT_NE(parseErr("// c\n{}").find("unexpected character '/'"), std::string::npos);
  EXPECT_NE(parseErr("{} x").find("unexpected text after the JSON value"), std::string::npos);
  EXPECT_NE(parseErr("").find("unexpected end of input"), std::string::npos);
}

TEST(RuntimeJson, RejectsBadNumbersAndStrings) {
  EXPECT_NE(parseErr("012").find("leading zeros"), std::string::npos);
  EXPECT_NE(parseErr("1.").find("digit after '.'"), std::string::npos);
  EXPECT_NE(parseErr("-").find("expected a digit"), std::string::npos);
  EXPECT_NE(parseErr("1e999").find("out of range"), std::string::npos);
  EXPECT_NE(parseErr("\"abc").find("unterminated string"), std::string::npos);
  EXPECT_NE(parseErr("\"a\tb\"").find("control character"), std::string::npos);
  EXPECT_NE(parseErr("\"\\x\"").find("invalid escape"), std::string::npos);
  EXPECT_NE(parseErr("\"\\ud800\"").find("surrogate"), std::string::npos);
  EXPECT_NE(parseErr("tru").find("unexpected character 't'"), std::string::npos);
}

TEST(RuntimeJson, RejectsDeepNesting) {
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_NE(parseErr(deep).find("nesting deeper than 64"), std::string::npos);
}

TEST(RuntimeJson, RejectsMissingSeparators) {
  EXPECT_NE(parseErr("{\"a\" 1}").find("expected ':'"), std::string::npos);
  EXPECT_NE(parseErr("[1 2]").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(parseErr("{1: 2}").find("expected a string key"), std::string::npos);
}

} // namespace
