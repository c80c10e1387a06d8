// A small strict JSON reader (RFC 8259): no comments, no trailing commas, no
// duplicate keys, nothing after the value. Enough for gemmc manifests, bench
// predictions and Triton results; not a general-purpose library.
#ifndef GEMMC_RUNTIME_JSON_H
#define GEMMC_RUNTIME_JSON_H

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gemmc::rt {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue makeBool(bool b);
  static JsonValue makeNumber(double d, bool isInteger, int64_t i);
  static JsonValue makeString(std::string s);
  static JsonValue makeArray(std::vector<JsonValue> items);
  static JsonValue makeObject(std::vector<std::pair<std::string, JsonValue>> members);

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isNumber() const { return kind_ == Kind::Number; }
  /// A number written without fraction or exponent that fits in int64.
  bool isInteger() const { return kind_ == Kind::Number && isInteger_; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  bool asBool() const { return bool_; }
  double asDouble() const { return number_; }
  int64_t asInt() const { return int_; }
  const std::string &asString() const { return string_; }
  const std::vector<JsonValue> &items() const { return items_; }
  const std::vector<std::pair<std::string, JsonValue>> &members() const { return members_; }
  /// Member lookup; nullptr when absent or not an object.
  const JsonValue *find(const std::string &key) const;

  /// Compact text form, used in error messages.
  std::string dump() const;

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  bool isInteger_ = false;
  double number_ = 0;
  int64_t int_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

/// Parses `text`. On failure returns false and sets `error` to
/// "line L, column C: what".
bool parseJson(const std::string &text, JsonValue &out, std::string &error);

const char *jsonKindName(JsonValue::Kind kind);

} // namespace gemmc::rt

#endif
