#include "gemmc/runtime/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace gemmc::rt {

JsonValue JsonValue::makeBool(bool b) {
  JsonValue v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}
JsonValue JsonValue::makeNumber(double d, bool isInteger, int64_t i) {
  JsonValue v;
  v.kind_ = Kind::Number;
  v.number_ = d;
  v.isInteger_ = isInteger;
  v.int_ = i;
  return v;
}
JsonValue JsonValue::makeString(std::string s) {
  JsonValue v;
  v.kind_ = Kind::String;
  v.string_ = std::move(s);
  return v;
}
JsonValue JsonValue::makeArray(std::vector<JsonValue> items) {
  JsonValue v;
  v.kind_ = Kind::Array;
  v.items_ = std::move(items);
  return v;
}
JsonValue JsonValue::makeObject(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v;
  v.kind_ = Kind::Object;
  v.members_ = std::move(members);
  return v;
}

const JsonValue *JsonValue::find(const std::string &key) const {
  if (kind_ != Kind::Object)
    return nullptr;
  for (const auto &m : members_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

static void dumpString(const std::string &s, std::string &out) {
  out += '"';
  for (char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

static void dumpValue(const JsonValue &v, std::string &out) {
  switch (v.kind()) {
  case JsonValue::Kind::Null: out += "null"; break;
  case JsonValue::Kind::Bool: out += v.asBool() ? "true" : "false"; break;
  case JsonValue::Kind::Number: {
    char buf[64];
    if (v.isInteger())
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v.asInt()));
    else
      std::snprintf(buf, sizeof buf, "%.17g", v.asDouble());
    out += buf;
    break;
  }
  case JsonValue::Kind::String: dumpString(v.asString(), out); break;
  case JsonValue::Kind::Array: {
    out += '[';
    bool first = true;
    for (const auto &i : v.items()) {
      if (!first)
        out += ", ";
      first = false;
      dumpValue(i, out);
    }
    out += ']';
    break;
  }
  case JsonValue::Kind::Object: {
    out += '{';
    bool first = true;
    for (const auto &m : v.members()) {
      if (!first)
        out += ", ";
      first = false;
      dumpString(m.first, out);
      out += ": ";
      dumpValue(m.second, out);
    }
    out += '}';
    break;
  }
  }
}

std::string JsonValue::dump() const {
  std::string out;
  dumpValue(*this, out);
  return out;
}

const char *jsonKindName(JsonValue::Kind kind) {
  switch (kind) {
  case JsonValue::Kind::Null: return "null";
  case JsonValue::Kind::Bool: return "a boolean";
  case JsonValue::Kind::Number: return "a number";
  case JsonValue::Kind::String: return "a string";
  case JsonValue::Kind::Array: return "an array";
  case JsonValue::Kind::Object: return "an object";
  }
  return "?";
}

namespace {

class Parser {
public:
  explicit Parser(const std::string &text) : s_(text) {}

  bool parse(JsonValue &out, std::string &error) {
    skipWs();
    if (!value(out, 0))
      return fail(error);
    skipWs();
    if (pos_ != s_.size()) {
      err_ = "unexpected text after the JSON value";
      return fail(error);
    }
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;
  const std::string &s_;
  size_t pos_ = 0;
  std::string err_;

  bool fail(std::string &error) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error = "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + err_;
    return false;
  }
  bool error(const std::string &what) {
    err_ = what;
    return false;
  }
  void skipWs() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s_.compare(pos_, n, word) != 0)
      return false;
    pos_ += n;
    return true;
  }

  bool value(JsonValue &out, int depth) {
    if (depth > kMaxDepth)
      return error("nesting deeper than 64 levels");
    if (pos_ >= s_.size())
      return error("unexpected end of input, expected a value");
    char c = s_[pos_];
    if (c == '{')
      return object(out, depth);
    if (c == '[')
      return array(out, depth);
    if (c == '"') {
      std::string str;
      if (!string(str))
        return false;
      out = JsonValue::makeString(std::move(str));
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return number(out);
    if (literal("true")) {
      out = JsonValue::makeBool(true);
      return true;
    }
    if (literal("false")) {
      out = JsonValue::makeBool(false);
      return true;
    }
    if (literal("null")) {
      out = JsonValue();
      return true;
    }
    return error(std::string("unexpected character '") + c + "', expected a value");
  }

  bool object(JsonValue &out, int depth) {
    ++pos_; // {
    std::vector<std::pair<std::string, JsonValue>> members;
    std::set<std::string> seen;
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      out = JsonValue::makeObject(std::move(members));
      return true;
    }
    while (true) {
      skipWs();
      if (pos_ >= s_.size() || s_[pos_] != '"')
        return error("expected a string key in object");
      size_t keyPos = pos_;
      std::string key;
      if (!string(key))
        return false;
      if (!seen.insert(key).second) {
        pos_ = keyPos;
        return error("duplicate key \"" + key + "\"");
      }
      skipWs();
      if (pos_ >= s_.size() || s_[pos_] != ':')
        return error("expected ':' after key \"" + key + "\"");
      ++pos_;
      skipWs();
      JsonValue v;
      if (!value(v, depth + 1))
        return false;
      members.emplace_back(std::move(key), std::move(v));
      skipWs();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        skipWs();
        if (pos_ < s_.size() && s_[pos_] == '}')
          return error("trailing comma in object");
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        out = JsonValue::makeObject(std::move(members));
        return true;
      }
      return error("expected ',' or '}' in object");
    }
  }

  bool array(JsonValue &out, int depth) {
    ++pos_; // [
    std::vector<JsonValue> items;
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      out = JsonValue::makeArray(std::move(items));
      return true;
    }
    while (true) {
      skipWs();
      JsonValue v;
      if (!value(v, depth + 1))
        return false;
      items.push_back(std::move(v));
      skipWs();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        skipWs();
        if (pos_ < s_.size() && s_[pos_] == ']')
          return error("trailing comma in array");
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        out = JsonValue::makeArray(std::move(items));
        return true;
      }
      return error("expected ',' or ']' in array");
    }
  }

  static void appendUtf8(uint32_t cp, std::string &out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t &cp) {
    if (pos_ + 4 > s_.size())
      return error("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = s_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= h - '0';
      else if (h >= 'a' && h <= 'f')
        cp |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        cp |= h - 'A' + 10;
      else
        return error("bad hex digit in \\u escape");
    }
    return true;
  }

  bool string(std::string &out) {
    ++pos_; // "
    while (true) {
      if (pos_ >= s_.size())
        return error("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20)
        return error("control character in string (escape it)");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size())
        return error("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t lo;
          if (!(pos_ + 1 < s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u'))
            return error("high surrogate without a low surrogate");
          pos_ += 2;
          if (!hex4(lo))
            return false;
          if (lo < 0xDC00 || lo > 0xDFFF)
            return error("bad low surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return error("lone low surrogate");
        }
        appendUtf8(cp, out);
        break;
      }
      default:
        --pos_;
        return error(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool number(JsonValue &out) {
    size_t start = pos_;
    bool isInteger = true;
    if (s_[pos_] == '-')
      ++pos_;
    if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9'))
      return error("expected a digit");
    if (s_[pos_] == '0') {
      ++pos_;
      if (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        return error("leading zeros are not allowed");
    } else {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      isInteger = false;
      ++pos_;
      if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9'))
        return error("expected a digit after '.'");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      isInteger = false;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'))
        ++pos_;
      if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9'))
        return error("expected a digit in exponent");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
    }
    std::string text = s_.substr(start, pos_ - start);
    double d = std::strtod(text.c_str(), nullptr);
    int64_t i = 0;
    if (isInteger) {
      errno = 0;
      long long ll = std::strtoll(text.c_str(), nullptr, 10);
      if (errno == ERANGE)
        isInteger = false; // too large: still a valid number, not an integer
      else
        i = ll;
    }
    if (!std::isfinite(d)) {
      pos_ = start;
      return error("number out of range");
    }
    out = JsonValue::makeNumber(d, isInteger, i);
    return true;
  }
};

} // namespace

bool parseJson(const std::string &text, JsonValue &out, std::string &error) {
  Parser p(text);
  return p.parse(out, error);
}

} // namespace gemmc::rt
