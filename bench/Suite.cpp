#include "Suite.h"

#include <cctype>
#include <set>
#include <sstream>

namespace gemmc::bench {

namespace {

struct Value {
  bool isList = false;
  std::string scalar;
  std::vector<std::string> list;
};

class Line {
public:
  Line(const std::string &s, const std::string &where) : s_(s), where_(where) {}
  std::string error;

  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t'))
      ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool done() {
    ws();
    return p_ >= s_.size();
  }
  bool fail(const std::string &what) {
    if (error.empty())
      error = where_ + ": " + what;
    return false;
  }
  bool scalar(std::string &out) {
    ws();
    out.clear();
    if (p_ < s_.size() && s_[p_] == '"') {
      ++p_;
      while (p_ < s_.size() && s_[p_] != '"')
        out += s_[p_++];
      if (p_ >= s_.size())
        return fail("unterminated string");
      ++p_;
      return true;
    }
    while (p_ < s_.size() && std::string(",:[]{}").find(s_[p_]) == std::string::npos)
      out += s_[p_++];
    while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())))
      out.pop_back();
    if (out.empty())
      return fail("expected a value");
    return true;
  }
  bool value(Value &v) {
    ws();
    if (eat('[')) {
      v.isList = true;
      if (eat(']'))
        return true;
      while (true) {
        std::string item;
        if (!scalar(item))
          return false;
        v.list.push_back(item);
        if (eat(']'))
          return true;
        if (!eat(','))
          return fail("expected ',' or ']' in a list");
      }
    }
    return scalar(v.scalar);
  }
  bool mapping(std::vector<std::pair<std::string, Value>> &out) {
    if (!eat('{'))
      return fail("expected a flow mapping {key: value, ...}");
    if (eat('}'))
      return true;
    while (true) {
      std::string key;
      if (!scalar(key))
        return false;
      if (!eat(':'))
        return fail("expected ':' after '" + key + "'");
      Value v;
      if (!value(v))
        return false;
      out.emplace_back(key, v);
      if (eat('}'))
        return true;
      if (!eat(','))
        return fail("expected ',' or '}' in a mapping");
    }
  }

private:
  std::string s_; // a copy: callers pass temporaries
  std::string where_;
  size_t p_ = 0;
};

std::string stripComment(const std::string &line) {
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"')
      quoted = !quoted;
    if (line[i] == '#' && !quoted)
      return line.substr(0, i);
  }
  return line;
}

bool toInt(const std::string &s, int64_t &out) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  out = std::stoll(s);
  return true;
}

} // namespace

bool parseSuite(const std::string &text, const std::string &source, Suite &out, std::string &error) {
  Suite suite;
  std::istringstream in(text);
  std::string raw;
  int lineNo = 0;
  bool inShapes = false;
  std::set<std::string> names;
  while (std::getline(in, raw)) {
    ++lineNo;
    std::string line = stripComment(raw);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
      line.pop_back();
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string::npos)
      continue;
    std::string where = source + ":" + std::to_string(lineNo);
    std::string body = line.substr(indent);
    if (body[0] == '-') {
      if (!inShapes) {
        error = where + ": a list item outside 'shapes:'";
        return false;
      }
      Line l(body.substr(1), where);
      std::vector<std::pair<std::string, Value>> m;
      if (!l.mapping(m) || !l.done()) {
        error = l.error.empty() ? where + ": unexpected text after the mapping" : l.error;
        return false;
      }
      SuiteShape s;
      bool hasM = false, hasN = false, hasK = false;
      for (auto &[key, v] : m) {
        if (key == "name" && !v.isList) {
          s.name = v.scalar;
        } else if ((key == "m" || key == "n" || key == "k") && !v.isList) {
          int64_t x;
          if (!toInt(v.scalar, x) || x < 1) {
            error = where + ": '" + key + "' must be a positive integer, got '" + v.scalar + "'";
            return false;
          }
          (key == "m" ? s.m : key == "n" ? s.n : s.k) = x;
          (key == "m" ? hasM : key == "n" ? hasN : hasK) = true;
        } else if (key == "cubins" && v.isList) {
          s.cubins = v.list;
        } else {
          error = where + ": unknown or mistyped key '" + key + "' (expected name, m, n, k, cubins: [...])";
          return false;
        }
      }
      if (s.name.empty() || !hasM || !hasN || !hasK) {
        error = where + ": a shape needs name, m, n and k";
        return false;
      }
      if (!names.insert(s.name).second) {
        error = where + ": shape '" + s.name + "' listed twice";
        return false;
      }
      suite.shapes.push_back(s);
      continue;
    }
    if (indent != 0) {
      error = where + ": unexpected indentation";
      return false;
    }
    size_t colon = body.find(':');
    if (colon == std::string::npos) {
      error = where + ": expected 'key: value'";
      return false;
    }
    std::string key = body.substr(0, colon);
    std::string rest = body.substr(colon + 1);
    inShapes = false;
    if (key == "shapes") {
      if (rest.find_first_not_of(" \t") != std::string::npos) {
        error = where + ": 'shapes:' takes a list of '- {...}' lines below it";
        return false;
      }
      inShapes = true;
    } else if (key == "cubins") {
      Line l(rest, where);
      Value v;
      if (!l.value(v) || !v.isList || !l.done()) {
        error = l.error.empty() ? where + ": 'cubins' must be a list [glob, ...]" : l.error;
        return false;
      }
      suite.cubins = v.list;
    } else {
      error = where + ": unknown key '" + key + "' (expected cubins or shapes)";
      return false;
    }
  }
  if (suite.shapes.empty()) {
    error = source + ": no shapes";
    return false;
  }
  out = std::move(suite);
  return true;
}

} // namespace gemmc::bench
