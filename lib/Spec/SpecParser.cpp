//===- SpecParser.cpp - spec.yaml to a checked KernelSpec ----------------===//
//
// Two passes over the text. The first walks the raw YAML node tree
// (yaml::Stream) to record where every key's value starts and to reject
// unknown or repeated keys with a did-you-mean. The second reads the typed
// values with YAML I/O (MappingTraits / ScalarTraits), whose scalar parsers
// below word their own errors. Both report through SourceMgr diagnostics, so
// every message carries file:line:col.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Spec/SpecParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include <array>
#include <string_view>
#include <type_traits>

using namespace gemmc;
using llvm::SMLoc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// The schema's keys (Schema.def's rows)
//===----------------------------------------------------------------------===//

namespace {
/// The mappings of a spec: Schema.def's SECTION names.
enum class Section {
  TOP,
  OPERANDS,
  OPERAND,
  PROBLEM,
  MAINLOOP,
  TILE_SCHEDULER,
  EPILOGUE,
  None, ///< a row that holds a value, not a mapping
};

/// The section a struct-typed row maps (Value rows of a section struct).
template <typename T> constexpr Section kSectionOfType = Section::None;
template <> constexpr Section kSectionOfType<OperandSpec> = Section::OPERAND;
template <> constexpr Section kSectionOfType<MainloopSpec> = Section::MAINLOOP;
template <> constexpr Section kSectionOfType<TileSchedulerSpec> =
    Section::TILE_SCHEDULER;
template <> constexpr Section kSectionOfType<EpilogueSpec> = Section::EPILOGUE;

/// One row of Schema.def, as the structure walker needs it.
struct KeyRow {
  Section section;
  StringRef key;
  Section child; ///< the mapping the key holds, or None
  bool isBool;
  bool required;
};

#define GEMMC_SCHEMA_CHILD_Value(TYPE) kSectionOfType<TYPE>
#define GEMMC_SCHEMA_CHILD_Int(TYPE) Section::None
#define GEMMC_SCHEMA_CHILD_AutoInt(TYPE) Section::None
#define GEMMC_SCHEMA_CHILD_List(TYPE) Section::None
#define GEMMC_SCHEMA_CHILD_Group(TYPE) Section::TYPE
#define GEMMC_SCHEMA_BOOL_Value(TYPE) std::is_same_v<TYPE, bool>
#define GEMMC_SCHEMA_BOOL_Int(TYPE) false
#define GEMMC_SCHEMA_BOOL_AutoInt(TYPE) false
#define GEMMC_SCHEMA_BOOL_List(TYPE) false
#define GEMMC_SCHEMA_BOOL_Group(TYPE) false
const KeyRow kKeyRows[] = {
#define GEMMC_FIELD(SECTION, KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)       \
  {Section::SECTION, #KEY, GEMMC_SCHEMA_CHILD_##READ(TYPE),                    \
   GEMMC_SCHEMA_BOOL_##READ(TYPE), std::string_view(#PRESENCE) == "Required"},
#include "gemmc/Spec/Schema.def"
};

/// The keys of each section, in the table's order.
llvm::ArrayRef<StringRef> sectionKeys(Section s) {
  static const auto keys = [] {
    std::array<std::vector<StringRef>, static_cast<size_t>(Section::None)> out;
    for (const KeyRow &row : kKeyRows)
      out[static_cast<size_t>(row.section)].push_back(row.key);
    return out;
  }();
  if (s == Section::None)
    return {};
  return keys[static_cast<size_t>(s)];
}

/// The row a dotted path names ("mainloop.stages", "operands.a.layout"),
/// or null.
const KeyRow *rowAt(StringRef path) {
  Section section = Section::TOP;
  const KeyRow *row = nullptr;
  while (!path.empty()) {
    if (section == Section::None)
      return nullptr;
    auto [key, rest] = path.split('.');
    row = nullptr;
    for (const KeyRow &r : kKeyRows)
      if (r.section == section && r.key == key)
        row = &r;
    if (!row)
      return nullptr;
    section = row->child;
    path = rest;
  }
  return row;
}
} // namespace

llvm::ArrayRef<StringRef> gemmc::allowedKeys(StringRef path) {
  if (path.empty())
    return sectionKeys(Section::TOP);
  const KeyRow *row = rowAt(path);
  return row ? sectionKeys(row->child) : llvm::ArrayRef<StringRef>();
}

bool gemmc::isBoolKey(StringRef path) {
  const KeyRow *row = rowAt(path);
  return row && row->isBool;
}

bool gemmc::isRequiredKey(StringRef path) {
  const KeyRow *row = rowAt(path);
  return row && row->required;
}

/// The closest of `choices` to `word`, if it is close enough to be a typo.
static std::optional<StringRef> closest(StringRef word,
                                        llvm::ArrayRef<StringRef> choices) {
  std::optional<StringRef> best;
  unsigned bestDist = ~0u;
  for (StringRef c : choices) {
    unsigned d = word.edit_distance_insensitive(c, /*AllowReplacements=*/true);
    // On a tie, a choice that extends the word is the likelier typo
    // ("sm_90" means sm_90a rather than sm_80).
    bool extends = c.starts_with_insensitive(word);
    if (d < bestDist ||
        (d == bestDist && extends && best && !best->starts_with_insensitive(word))) {
      bestDist = d;
      best = c;
    }
  }
  if (best && bestDist <= std::max<size_t>(2, word.size() / 3))
    return best;
  return std::nullopt;
}

/// How a message quotes a value from the spec: whole when short, else its
/// start and its length (a 300 KB key must not become 300 KB of stderr).
static std::string echo(StringRef s) {
  constexpr size_t kEchoChars = 40;
  if (s.size() <= kEchoChars)
    return s.str();
  size_t cut = kEchoChars;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut; // not inside a UTF-8 sequence
  return llvm::formatv("{0}... ({1} characters)", s.take_front(cut), s.size())
      .str();
}

static std::string joinChoices(llvm::ArrayRef<StringRef> choices) {
  return llvm::join(choices, ", ");
}

//===----------------------------------------------------------------------===//
// YAML I/O mapping
//===----------------------------------------------------------------------===//

namespace {
struct IntValue {
  int64_t value = 0;
  bool operator==(const IntValue &o) const { return value == o.value; }
};
/// An integer or the word `auto` (stored as 0).
struct AutoInt {
  int64_t value = 0;
  bool operator==(const AutoInt &o) const { return value == o.value; }
};

/// Lets scalar parsers return messages that name the offending value, and
/// holds the List rows' integers until readValues checks their count.
struct ReadContext {
  std::string message;
  llvm::StringMap<std::vector<IntValue>> lists;
};

StringRef failWith(void *ctx, std::string message) {
  auto *rc = static_cast<ReadContext *>(ctx);
  rc->message = std::move(message);
  return rc->message;
}

StringRef parseInteger(StringRef s, void *ctx, int64_t &out, bool allowAuto,
                       StringRef autoWord) {
  if (allowAuto && s == autoWord) {
    out = allowAuto && autoWord == "auto" ? 0 : Dim::kDynamic;
    return {};
  }
  // Decimal only: with radix 0, "010" would silently be 8.
  if (s.getAsInteger(10, out)) {
    StringRef digits = s.starts_with("-") ? s.drop_front() : s;
    if (!digits.empty() && llvm::all_of(digits, llvm::isDigit))
      return failWith(ctx, llvm::formatv("'{0}' is outside the 64-bit integer "
                                         "range",
                                         echo(s))
                               .str());
    return failWith(ctx, llvm::formatv("'{0}' is not an integer{1}", echo(s),
                                       allowAuto ? (" or " + autoWord).str()
                                                 : std::string())
                             .str());
  }
  return {};
}

} // namespace

namespace llvm::yaml {
/// Spelling of an enum for YAML I/O, with the legal values in the error.
template <typename T> struct EnumScalarTraits {
  static void output(const T &v, void *, raw_ostream &os) {
    os << EnumTraits<T>::name(v);
  }
  static StringRef input(StringRef s, void *ctx, T &v) {
    if (auto p = EnumTraits<T>::parse(s)) {
      v = *p;
      return {};
    }
    auto choices = EnumTraits<T>::choices();
    std::string msg = formatv("unknown value '{0}'", echo(s)).str();
    if (auto best = closest(s, choices))
      msg += formatv("; did you mean '{0}'?", *best).str();
    msg += " (expected one of " + joinChoices(choices) + ")";
    return failWith(ctx, msg);
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  template <> struct ScalarTraits<TYPE> : EnumScalarTraits<TYPE> {};
#define GEMMC_EXTERNAL_ENUM GEMMC_ENUM
#include "gemmc/Spec/Schema.def"

template <> struct ScalarTraits<IntValue> {
  static void output(const IntValue &v, void *, raw_ostream &os) { os << v.value; }
  static StringRef input(StringRef s, void *ctx, IntValue &v) {
    return parseInteger(s, ctx, v.value, /*allowAuto=*/false, "");
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
template <> struct ScalarTraits<AutoInt> {
  static void output(const AutoInt &v, void *, raw_ostream &os) {
    if (v.value == 0)
      os << "auto";
    else
      os << v.value;
  }
  static StringRef input(StringRef s, void *ctx, AutoInt &v) {
    if (StringRef err = parseInteger(s, ctx, v.value, /*allowAuto=*/true, "auto");
        !err.empty())
      return err;
    if (s != "auto" && v.value == 0)
      return failWith(ctx, "[value-range] 0 is not allowed here; use auto to "
                           "let gemmc choose");
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
template <> struct ScalarTraits<Dim> {
  static void output(const Dim &v, void *, raw_ostream &os) {
    if (v.isDynamic())
      os << "dynamic";
    else
      os << v.value;
  }
  static StringRef input(StringRef s, void *ctx, Dim &v) {
    if (StringRef err =
            parseInteger(s, ctx, v.value, /*allowAuto=*/true, "dynamic");
        !err.empty())
      return err;
    if (s != "dynamic" && v.value < 1)
      return failWith(ctx, formatv("[value-range] problem sizes are at least "
                                   "1, got {0}; use "
                                   "a positive integer or dynamic",
                                   v.value)
                               .str());
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

/// The top level. Its List rows' integers wait in the ReadContext for
/// readValues, which checks their count.
struct TopLevel {
  KernelSpec spec;
};
} // namespace llvm::yaml

LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(IntValue)

namespace {
using llvm::yaml::IO;

/// Reads one key into `value` with YAML I/O's own traits for T.
template <typename T>
void mapKey(IO &io, const char *key, T &value, bool required) {
  if (required)
    io.mapRequired(key, value);
  else
    io.mapOptional(key, value);
}
/// Reads one key through the scalar type W (IntValue, AutoInt).
template <typename W>
void mapWrapped(IO &io, const char *key, int64_t &value, bool required) {
  W w{value};
  mapKey(io, key, w, required);
  value = w.value;
}
/// A List row: the integers go to the context; readValues checks their
/// count and stores them, with the list's location at hand.
void mapList(IO &io, const char *key, bool required) {
  auto *ctx = static_cast<ReadContext *>(io.getContext());
  mapKey(io, key, ctx->lists[key], required);
}
/// A Group row: a mapping of members of the enclosing struct.
template <Section S, typename Struct> struct Grouped {
  Struct *members;
};

template <Section S, typename Struct> void mapSection(IO &io, Struct &v);

#define GEMMC_SCHEMA_MAP_Value(KEY, MEMBER, TYPE, REQUIRED)                    \
  mapKey(io, #KEY, v.MEMBER, REQUIRED)
#define GEMMC_SCHEMA_MAP_Int(KEY, MEMBER, TYPE, REQUIRED)                      \
  mapWrapped<IntValue>(io, #KEY, v.MEMBER, REQUIRED)
#define GEMMC_SCHEMA_MAP_AutoInt(KEY, MEMBER, TYPE, REQUIRED)                  \
  mapWrapped<AutoInt>(io, #KEY, v.MEMBER, REQUIRED)
#define GEMMC_SCHEMA_MAP_List(KEY, MEMBER, TYPE, REQUIRED)                     \
  mapList(io, #KEY, REQUIRED)
#define GEMMC_SCHEMA_MAP_Group(KEY, MEMBER, TYPE, REQUIRED)                    \
  do {                                                                         \
    Grouped<Section::TYPE, Struct> group{&v};                                  \
    mapKey(io, #KEY, group, REQUIRED);                                         \
  } while (false)

/// The rows of section S, in order, read into `v`.
template <Section S, typename Struct> void mapSection(IO &io, Struct &v) {
#define GEMMC_FIELD(SECTION, KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)       \
  if constexpr (S == Section::SECTION)                                         \
    GEMMC_SCHEMA_MAP_##READ(KEY, MEMBER, TYPE,                                 \
                            std::string_view(#PRESENCE) == "Required");
#include "gemmc/Spec/Schema.def"
}
} // namespace

namespace llvm::yaml {
template <Section S, typename Struct>
struct MappingTraits<Grouped<S, Struct>> {
  static void mapping(IO &io, Grouped<S, Struct> &g) {
    mapSection<S>(io, *g.members);
  }
};
#define GEMMC_SCHEMA_SECTION_TRAITS(STRUCT)                                    \
  template <> struct MappingTraits<STRUCT> {                                   \
    static void mapping(IO &io, STRUCT &v) {                                   \
      mapSection<kSectionOfType<STRUCT>>(io, v);                               \
    }                                                                          \
  };
GEMMC_SCHEMA_SECTION_TRAITS(OperandSpec)
GEMMC_SCHEMA_SECTION_TRAITS(MainloopSpec)
GEMMC_SCHEMA_SECTION_TRAITS(TileSchedulerSpec)
GEMMC_SCHEMA_SECTION_TRAITS(EpilogueSpec)
#undef GEMMC_SCHEMA_SECTION_TRAITS
template <> struct MappingTraits<TopLevel> {
  static void mapping(IO &io, TopLevel &t) {
    mapSection<Section::TOP>(io, t.spec);
  }
};
} // namespace llvm::yaml

//===----------------------------------------------------------------------===//
// SpecFile
//===----------------------------------------------------------------------===//

/// Specs are small; anything larger is not a spec.
static constexpr size_t kMaxSpecBytes = 1 << 20;

/// Longest message and source line a diagnostic shows whole. A 300 KB key
/// or value would otherwise be echoed in the message and again in the
/// source line under it.
static constexpr size_t kShownChars = 160;

/// Prints `d`, cutting a long message and showing a window of a long source
/// line around the caret, with the true line:col.
static void printDiagnostic(const llvm::SMDiagnostic &d, llvm::raw_ostream &os) {
  StringRef line = d.getLineContents();
  StringRef message = d.getMessage();
  if (line.size() <= kShownChars && message.size() <= 4 * kShownChars) {
    d.print(nullptr, os, /*ShowColors=*/false);
    return;
  }
  std::string shownMessage = message.size() <= 4 * kShownChars
                                 ? message.str()
                                 : (message.take_front(4 * kShownChars) +
                                    llvm::formatv("... ({0} more characters)",
                                                  message.size() - 4 * kShownChars))
                                       .str();
  StringRef kind = "error";
  if (d.getKind() == llvm::SourceMgr::DK_Warning)
    kind = "warning";
  else if (d.getKind() == llvm::SourceMgr::DK_Note)
    kind = "note";
  else if (d.getKind() == llvm::SourceMgr::DK_Remark)
    kind = "remark";
  os << d.getFilename();
  if (d.getLineNo() >= 0)
    os << ':' << d.getLineNo() << ':' << d.getColumnNo() + 1;
  os << ": " << kind << ": " << shownMessage << "\n";
  if (d.getLineNo() < 0 || d.getColumnNo() < 0)
    return;
  size_t col = std::min<size_t>(d.getColumnNo(), line.size());
  size_t from = col > kShownChars / 2 ? col - kShownChars / 2 : 0;
  std::string window = from ? "..." : "";
  size_t caret = col - from + window.size();
  window += line.substr(from, kShownChars).str();
  if (from + kShownChars < line.size())
    window += "...";
  os << window << "\n" << std::string(caret, ' ') << "^\n";
}

/// A raw tokenizer message from YAMLParser, with the rule name and a way out.
static std::string yamlSyntaxMessage(StringRef raw) {
  StringRef hint = "check the indentation, brackets and quotes here; a spec "
                   "is 'key: value' lines (docs/spec.md)";
  if (raw.contains("Block End") || raw.contains("Expected Key"))
    hint = "keys of one mapping start in the same column and a value follows "
           "its key's ':'; check this line's indentation";
  if (raw.contains("Flow") || raw.contains("closing"))
    hint = "a '[' or '{' is not closed, or an entry is missing its ','";
  if (raw.contains("quote"))
    hint = "close the quote on the same line";
  return ("[yaml-syntax] " + raw.rtrim(".!") + "; " + hint).str();
}

static std::string tooBigMessage(StringRef size) {
  return llvm::formatv("the file is {0} bytes; a spec is a small YAML file of "
                       "at most {1} bytes",
                       size, kMaxSpecBytes)
      .str();
}

/// Flow collections nest no deeper than this in any spec; deeper input would
/// only exercise the YAML parser's recursion.
static constexpr int kMaxNesting = 32;

SpecFile::SpecFile(std::unique_ptr<llvm::MemoryBuffer> buffer,
                   llvm::raw_ostream &diagOS)
    : ownedBuffer_(std::move(buffer)), buffer_(ownedBuffer_->getMemBufferRef()),
      bufferName_(ownedBuffer_->getBufferIdentifier().str()), diagOS_(diagOS) {
  srcMgr_.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *ctx) {
        auto *self = static_cast<SpecFile *>(ctx);
        if (d.getKind() == llvm::SourceMgr::DK_Error)
          ++self->errors_;
        printDiagnostic(d, self->diagOS_);
      },
      this);
  srcMgr_.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer_, /*RequiresNullTerminator=*/false),
      SMLoc());
}

std::unique_ptr<SpecFile> SpecFile::open(StringRef path,
                                         llvm::raw_ostream &diagOS) {
  // Read at most one byte past the limit: /dev/zero, a pipe or a huge file
  // must end in the size message, not in an out-of-memory abort.
  auto cannotRead = [&](std::error_code ec) {
    diagOS << path << ": error: cannot read the spec: " << ec.message() << "\n";
    return nullptr;
  };
  bool isStdin = path == "-";
  llvm::sys::fs::file_t fd = llvm::sys::fs::getStdinHandle();
  if (!isStdin) {
    llvm::Expected<llvm::sys::fs::file_t> opened =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!opened)
      return cannotRead(llvm::errorToErrorCode(opened.takeError()));
    fd = *opened;
  }
  llvm::scope_exit closeFd([&] {
    if (!isStdin)
      llvm::sys::fs::closeFile(fd);
  });
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= kMaxSpecBytes) {
    size_t want = std::min(sizeof(chunk), kMaxSpecBytes + 1 - text.size());
    llvm::Expected<size_t> got =
        llvm::sys::fs::readNativeFile(fd, llvm::MutableArrayRef(chunk, want));
    if (!got)
      return cannotRead(llvm::errorToErrorCode(got.takeError()));
    if (*got == 0)
      break;
    text.append(chunk, *got);
  }
  // getFileOrSTDIN's name for standard input, which diagnostics print.
  std::string name = isStdin ? "<stdin>" : path.str();
  if (text.size() > kMaxSpecBytes) {
    // A regular file's size is known; a stream's is not.
    llvm::sys::fs::file_status st;
    std::string size = "more than " + std::to_string(kMaxSpecBytes);
    if (!isStdin && !llvm::sys::fs::status(path, st) &&
        st.type() == llvm::sys::fs::file_type::regular_file &&
        st.getSize() > kMaxSpecBytes)
      size = std::to_string(st.getSize());
    // No source line under it: the start of /dev/zero is NUL bytes.
    diagOS << name << ":1:1: error: " << tooBigMessage(size) << "\n";
    return nullptr;
  }
  return std::unique_ptr<SpecFile>(
      new SpecFile(llvm::MemoryBuffer::getMemBufferCopy(text, name), diagOS));
}

std::unique_ptr<SpecFile> SpecFile::fromString(StringRef text,
                                               StringRef bufferName,
                                               llvm::raw_ostream &diagOS) {
  return std::unique_ptr<SpecFile>(new SpecFile(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), diagOS));
}

SMLoc SpecFile::locationOf(StringRef field) const {
  StringRef f = field;
  while (!f.empty()) {
    auto it = fieldLocs_.find(f);
    if (it != fieldLocs_.end())
      return it->second;
    f = f.rsplit('.').first == f ? StringRef() : f.rsplit('.').first;
  }
  // A field the spec leaves out (threads, mainloop) takes its value from the
  // tile; point there rather than at the top of the file.
  if (field != "tile_shape")
    if (auto it = fieldLocs_.find("tile_shape"); it != fieldLocs_.end())
      return it->second;
  return SMLoc::getFromPointer(buffer_.getBufferStart());
}

void SpecFile::report(const Violation &v, llvm::SourceMgr::DiagKind kind) {
  if (!spec_.swapAb) {
    srcMgr_.PrintMessage(locationOf(v.field), kind, v.str());
    return;
  }
  // swap_ab: the rules and the lowering check the swapped kernel (Rules.h);
  // point at the caller's operand, and say so unless the message is about
  // swap_ab already.
  Violation caller = v;
  llvm::StringRef field = v.field;
  if (field.consume_front("operands.a"))
    caller.field = "operands.b" + field.str();
  else if (field.consume_front("operands.b"))
    caller.field = "operands.a" + field.str();
  else if (field == "problem.m")
    caller.field = "problem.n";
  else if (field == "problem.n")
    caller.field = "problem.m";
  if (!llvm::StringRef(v.message).contains("swap_ab"))
    caller.message += " (swap_ab: checked on the swapped kernel C^T = B^T A^T, "
                      "whose a, b, M, N, BLOCK_M and BLOCK_N are the spec's b, "
                      "a, N, M, BLOCK_N and BLOCK_M)";
  srcMgr_.PrintMessage(locationOf(caller.field), kind, caller.str());
}

namespace {
/// What kind of YAML node a schema path holds. The typed reader reports a
/// mismatch in YAML I/O's words ("unexpected scalar" for a mapping), so the
/// walker checks the kind first and names the field.
enum class Shape { Unknown, Mapping, Sequence, Scalar, Bool };

Shape shapeOf(StringRef path) {
  if (!allowedKeys(path).empty())
    return Shape::Mapping;
  if (path == "tile_shape" || path == "cluster_shape")
    return Shape::Sequence;
  if (path == "tile_shape.*" || path == "cluster_shape.*")
    return Shape::Scalar;
  if (isBoolKey(path))
    return Shape::Bool;
  StringRef parent, key = path;
  if (path.contains('.'))
    std::tie(parent, key) = path.rsplit('.');
  if (llvm::is_contained(allowedKeys(parent), key))
    return Shape::Scalar;
  return Shape::Unknown; // under an unknown key, reported already
}

StringRef kindName(llvm::yaml::Node *node) {
  if (llvm::isa<llvm::yaml::MappingNode>(node))
    return "a mapping";
  if (llvm::isa<llvm::yaml::SequenceNode>(node))
    return "a list";
  if (llvm::isa<llvm::yaml::NullNode>(node))
    return "nothing";
  return "a single value";
}

std::string expectedText(StringRef path, Shape shape) {
  switch (shape) {
  case Shape::Mapping:
    return "a mapping of " + joinChoices(allowedKeys(path));
  case Shape::Sequence:
    return path == "tile_shape"
               ? "a list of 3 integers [BLOCK_M, BLOCK_N, BLOCK_K]"
               : "a list of 2 integers [along M, along N]";
  case Shape::Bool:
    return "true or false";
  case Shape::Scalar:
  case Shape::Unknown:
    break;
  }
  return "a single value";
}

/// Walks the raw node tree once, recording value locations and checking keys.
class StructureWalker {
public:
  StructureWalker(llvm::SourceMgr &sm, llvm::StringMap<SMLoc> &locs)
      : sm_(sm), locs_(locs) {}

  void walk(llvm::yaml::Node *node, const std::string &path, int depth) {
    if (!node || ok_ == false)
      return;
    if (depth > kMaxNesting) {
      error(node->getSourceRange().Start, "[value-range] the spec nests deeper "
                                          "than any spec field does");
      return;
    }
    if (llvm::isa<llvm::yaml::AliasNode>(node)) {
      error(node->getSourceRange().Start,
            "a spec does not use YAML anchors and aliases; write the value "
            "out");
      return;
    }
    if (!checkShape(node, path))
      return;
    if (auto *map = llvm::dyn_cast<llvm::yaml::MappingNode>(node)) {
      llvm::ArrayRef<StringRef> keys = allowedKeys(path);
      llvm::StringMap<SMLoc> seen;
      for (llvm::yaml::KeyValueNode &kv : *map) {
        auto *keyNode = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(kv.getKey());
        if (!keyNode) {
          if (kv.getKey())
            error(kv.getKey()->getSourceRange().Start,
                  "[unknown-key] keys must be plain names");
          continue;
        }
        llvm::SmallString<32> storage;
        StringRef key = keyNode->getValue(storage);
        SMLoc keyLoc = keyNode->getSourceRange().Start;
        if (!keys.empty() && !llvm::is_contained(keys, key)) {
          std::string where = path.empty() ? "at the top level" : "in " + path;
          std::string msg =
              llvm::formatv("[unknown-key] unknown key '{0}' {1}", echo(key), where).str();
          if (auto best = closest(key, keys))
            msg += llvm::formatv("; did you mean '{0}'?", *best).str();
          else
            msg += " (expected one of " + joinChoices(keys) + ")";
          error(keyLoc, msg);
        }
        if (!seen.try_emplace(key, keyLoc).second)
          error(keyLoc, llvm::formatv("[unknown-key] key '{0}' appears twice", echo(key)).str());
        std::string child = path.empty() ? key.str() : path + "." + key.str();
        llvm::yaml::Node *value = kv.getValue();
        if (value && llvm::isa<llvm::yaml::NullNode>(value)) {
          // An empty mapping means "all defaults"; anything else needs a
          // value. A null node has no useful location of its own.
          Shape shape = shapeOf(child);
          bool allOptional = !isRequiredKey(child);
          if (shape != Shape::Unknown &&
              !(shape == Shape::Mapping && allOptional))
            error(keyLoc, llvm::formatv("{0} has no value; it takes {1}", child,
                                        expectedText(child, shape))
                              .str());
          locs_.try_emplace(child, keyLoc);
          continue;
        }
        if (value && llvm::isa<llvm::yaml::AliasNode>(value)) {
          // An alias node's own location is not where it is written.
          error(keyLoc, llvm::formatv("{0}: a spec does not use YAML anchors "
                                      "and aliases; write the value out",
                                      child)
                            .str());
          continue;
        }
        if (value)
          locs_.try_emplace(child, value->getSourceRange().Start);
        walk(value, child, depth + 1);
      }
    } else if (auto *seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(node)) {
      for (llvm::yaml::Node &item : *seq)
        walk(&item, path + ".*", depth + 1);
    }
  }
  bool ok() const { return ok_; }

private:
  bool checkShape(llvm::yaml::Node *node, StringRef path) {
    if (path.empty())
      return true; // the root's kind is checked by checkStructure
    Shape shape = shapeOf(path);
    bool fits = true;
    switch (shape) {
    case Shape::Unknown:
      return true;
    case Shape::Mapping:
      fits = llvm::isa<llvm::yaml::MappingNode>(node);
      break;
    case Shape::Sequence:
      fits = llvm::isa<llvm::yaml::SequenceNode>(node);
      break;
    case Shape::Scalar:
    case Shape::Bool:
      fits = llvm::isa<llvm::yaml::ScalarNode>(node) ||
             llvm::isa<llvm::yaml::BlockScalarNode>(node);
      break;
    }
    StringRef name = path;
    bool element = name.consume_back(".*");
    if (!fits) {
      error(node->getSourceRange().Start,
            element
                ? llvm::formatv("{0} holds integers, not {1}", name,
                                kindName(node))
                      .str()
                : llvm::formatv("{0} takes {1}, not {2}", name,
                                expectedText(name, shape), kindName(node))
                      .str());
      return false;
    }
    if (shape == Shape::Scalar && name != "name" && name != "device") {
      // YAML reads a quoted 128 as text; YAML I/O would still take it as an
      // integer, so a typed field would accept a string.
      auto *scalar = llvm::dyn_cast<llvm::yaml::ScalarNode>(node);
      StringRef raw = scalar ? scalar->getRawValue() : StringRef();
      llvm::SmallString<16> storage;
      int64_t ignored;
      if ((raw.starts_with("'") || raw.starts_with("\"")) &&
          !scalar->getValue(storage).getAsInteger(10, ignored)) {
        error(node->getSourceRange().Start,
              llvm::formatv("[value-type] {0}: {1} is quoted, which makes it "
                            "text, not an integer; write {2} without quotes",
                            name, echo(raw), echo(scalar->getValue(storage)))
                  .str());
        return false;
      }
    }
    if (shape == Shape::Bool) {
      llvm::SmallString<16> storage;
      auto *scalar = llvm::dyn_cast<llvm::yaml::ScalarNode>(node);
      StringRef v = scalar ? scalar->getValue(storage) : StringRef("|");
      if (!llvm::yaml::parseBool(v)) {
        error(node->getSourceRange().Start,
              llvm::formatv("{0} takes true or false, not '{1}'", name, echo(v))
                  .str());
        return false;
      }
    }
    return true;
  }

  void error(SMLoc loc, const std::string &msg) {
    ok_ = false;
    sm_.PrintMessage(loc, llvm::SourceMgr::DK_Error, msg);
  }
  llvm::SourceMgr &sm_;
  llvm::StringMap<SMLoc> &locs_;
  bool ok_ = true;
};
} // namespace

/// What one pass over the flow brackets finds, outside quoted strings and
/// comments.
struct FlowScan {
  int deepest = 0;
  /// A ',' with nothing before it since the last ',' or opening bracket:
  /// YAMLParser drops such an entry, so `[128, , 64]` would read as 2 values.
  const char *emptyEntry = nullptr;
};

static FlowScan scanFlow(StringRef text) {
  FlowScan scan;
  int depth = 0;
  char quote = 0;
  bool comment = false, entryStart = false;
  for (const char &c : text) {
    if (comment) {
      comment = c != '\n';
      continue;
    }
    if (quote) {
      if (c == quote)
        quote = 0;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    if (c == '#') {
      comment = true;
      continue;
    }
    bool atEntryStart = entryStart;
    entryStart = false;
    if (c == '"' || c == '\'')
      quote = c;
    else if (c == '[' || c == '{') {
      scan.deepest = std::max(scan.deepest, ++depth);
      entryStart = true;
    } else if ((c == ']' || c == '}') && depth > 0)
      --depth;
    else if (c == ',' && depth > 0) {
      if (atEntryStart && !scan.emptyEntry)
        scan.emptyEntry = &c;
      entryStart = true;
    }
  }
  return scan;
}

bool SpecFile::checkStructure() { return checkText() && checkYamlStructure(); }

bool SpecFile::checkText() {
  StringRef text = buffer_.getBuffer();
  SMLoc start = SMLoc::getFromPointer(text.begin());
  if (text.size() > kMaxSpecBytes) {
    srcMgr_.PrintMessage(start, llvm::SourceMgr::DK_Error,
                         tooBigMessage(std::to_string(text.size())));
    return false;
  }
  if (text.find('\0') != StringRef::npos) {
    srcMgr_.PrintMessage(SMLoc::getFromPointer(text.data() + text.find('\0')),
                         llvm::SourceMgr::DK_Error,
                         "the file contains a NUL byte; a spec is a YAML text "
                         "file");
    return false;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = text[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      srcMgr_.PrintMessage(SMLoc::getFromPointer(text.data() + i),
                           llvm::SourceMgr::DK_Error,
                           llvm::formatv("the file contains the control byte "
                                         "0x{0:X-2}; a spec is a YAML text file",
                                         unsigned(c)));
      return false;
    }
  }
  {
    const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
    const llvm::UTF8 *cursor = begin;
    if (!llvm::isLegalUTF8String(&cursor, begin + text.size())) {
      srcMgr_.PrintMessage(
          SMLoc::getFromPointer(text.data() + (cursor - begin)),
          llvm::SourceMgr::DK_Error,
          llvm::formatv("the file is not UTF-8 text (byte 0x{0:X-2}); a spec "
                        "is a YAML text file",
                        unsigned(*cursor)));
      return false;
    }
  }
  // YAML indents with spaces; the scanner's own error for a tab points at
  // the line after it.
  for (size_t lineStart = 0; lineStart < text.size();) {
    size_t end = text.find('\n', lineStart);
    StringRef line = text.slice(lineStart, end);
    StringRef rest = line.ltrim(" \t");
    size_t tab = line.find('\t');
    if (tab != StringRef::npos && tab < line.size() - rest.size() &&
        !rest.trim().empty()) {
      srcMgr_.PrintMessage(SMLoc::getFromPointer(line.data() + tab),
                           llvm::SourceMgr::DK_Error,
                           "a tab in the indentation; YAML indents with spaces "
                           "only");
      return false;
    }
    if (end == StringRef::npos)
      break;
    lineStart = end + 1;
  }
  FlowScan flow = scanFlow(text);
  if (flow.deepest > kMaxNesting) {
    srcMgr_.PrintMessage(start, llvm::SourceMgr::DK_Error,
                         llvm::formatv("brackets nest deeper than {0} levels; "
                                       "no spec field nests like that",
                                       kMaxNesting));
    return false;
  }
  if (flow.emptyEntry) {
    srcMgr_.PrintMessage(SMLoc::getFromPointer(flow.emptyEntry),
                         llvm::SourceMgr::DK_Error,
                         "[yaml-syntax] an empty entry: nothing between this "
                         "',' and the one or the bracket before it; write the "
                         "missing value or remove the ','");
    return false;
  }
  return true;
}

bool SpecFile::checkYamlStructure() {
  StringRef text = buffer_.getBuffer();
  SMLoc start = SMLoc::getFromPointer(text.begin());
  unsigned errorsBefore = errors_;
  // The tokenizer reports through its own SourceMgr so that its messages,
  // and only those, get the rule name and a hint.
  llvm::SourceMgr yamlSrcMgr;
  yamlSrcMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *ctx) {
        auto *self = static_cast<SpecFile *>(ctx);
        self->srcMgr_.PrintMessage(d.getLoc(), d.getKind(),
                                   yamlSyntaxMessage(d.getMessage()));
      },
      this);
  llvm::yaml::Stream stream(buffer_, yamlSrcMgr, /*ShowColors=*/false);
  StructureWalker walker(srcMgr_, fieldLocs_);
  int documents = 0;
  bool empty = true;
  for (llvm::yaml::Document &doc : stream) {
    ++documents;
    llvm::yaml::Node *root = doc.getRoot();
    if (documents > 1) {
      srcMgr_.PrintMessage(root ? root->getSourceRange().Start : start,
                           llvm::SourceMgr::DK_Error,
                           "a spec file holds one YAML document; found a "
                           "second one");
      break;
    }
    if (!root || llvm::isa<llvm::yaml::NullNode>(root))
      continue;
    empty = false;
    if (!llvm::isa<llvm::yaml::MappingNode>(root)) {
      srcMgr_.PrintMessage(root->getSourceRange().Start,
                           llvm::SourceMgr::DK_Error,
                           "a spec is a YAML mapping of 'key: value' lines "
                           "starting with 'schema_version: 1'");
      // Stop here: the stream iterates once, and skipping the rest of a
      // deeply nested document would only recurse through it.
      break;
    }
    walker.walk(root, "", 0);
    if (!walker.ok())
      break; // moving on would skip the rest of the document recursively
  }
  if (stream.failed() || errors_ != errorsBefore || !walker.ok())
    return false;
  if (empty) {
    srcMgr_.PrintMessage(start, llvm::SourceMgr::DK_Error,
                         "the spec is empty; a spec is a YAML mapping starting "
                         "with 'schema_version: 1' (see docs/spec.md)");
    return false;
  }
  return true;
}

bool SpecFile::readValues() {
  ReadContext ctx;
  llvm::yaml::TopLevel top;
  auto handler = [](const llvm::SMDiagnostic &d, void *self) {
    auto *file = static_cast<SpecFile *>(self);
    if (d.getKind() == llvm::SourceMgr::DK_Error)
      ++file->errors_;
    printDiagnostic(d, file->diagOS_);
  };
  llvm::yaml::Input yin(buffer_, &ctx, handler, this);
  yin >> top;
  if (yin.error())
    return false;

  KernelSpec &s = top.spec;
  auto readArray = [&](StringRef field, const std::vector<IntValue> &in,
                       auto &out) {
    if (in.empty())
      return true; // not given: keep the default
    if (in.size() != out.size()) {
      srcMgr_.PrintMessage(
          locationOf(field), llvm::SourceMgr::DK_Error,
          llvm::formatv("[value-range] {0} has {1} values; it takes {2}", field,
                        in.size(), out.size()));
      return false;
    }
    for (size_t i = 0; i < in.size(); ++i)
      out[i] = in[i].value;
    return true;
  };
  bool ok = true;
#define GEMMC_FIELD(SECTION, KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)       \
  GEMMC_SCHEMA_READ_##READ(KEY, MEMBER)
#define GEMMC_SCHEMA_READ_List(KEY, MEMBER)                                    \
  ok &= readArray(#KEY, ctx.lists[#KEY], s.MEMBER);
#define GEMMC_SCHEMA_READ_Value(KEY, MEMBER)
#define GEMMC_SCHEMA_READ_Int(KEY, MEMBER)
#define GEMMC_SCHEMA_READ_AutoInt(KEY, MEMBER)
#define GEMMC_SCHEMA_READ_Group(KEY, MEMBER)
#include "gemmc/Spec/Schema.def"
  if (ctx.lists["tile_shape"].empty()) {
    srcMgr_.PrintMessage(locationOf("tile_shape"), llvm::SourceMgr::DK_Error,
                         "[value-range] tile_shape is empty; it takes three "
                         "values: [BLOCK_M, BLOCK_N, BLOCK_K]");
    ok = false;
  }
  auto isIdent = [](StringRef n) {
    if (n.empty() || n.size() > 200 || llvm::isDigit(n.front()))
      return false;
    return llvm::all_of(n, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  };
  if (!isIdent(s.name)) {
    srcMgr_.PrintMessage(locationOf("name"), llvm::SourceMgr::DK_Error,
                         llvm::formatv("[value-range] name '{0}' is the kernel's "
                                       "symbol and must be a C identifier "
                                       "(letters, digits, '_'; at most 200)",
                                       echo(s.name)));
    ok = false;
  }
  spec_ = s;
  return ok;
}

bool SpecFile::parse() {
  if (!checkStructure() || !readValues())
    return false;
  written_ = spec_;
  // Rules on values as written first: resolveAuto reads the device table and
  // does arithmetic on sizes, which must be sane for that.
  std::vector<Violation> early = checkValues(spec_);
  for (const Violation &v : early)
    report(v);
  if (!early.empty())
    return false;
  // swap_ab: from here on the spec is the swapped kernel's (Rules.h).
  if (spec_.swapAb)
    spec_ = swapAbView(spec_);
  resolveAuto(spec_);
  std::vector<Violation> violations = checkSpec(spec_);
  for (const Violation &v : violations)
    report(v);
  return violations.empty();
}
