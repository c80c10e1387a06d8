//===- SpecParser.h - spec.yaml to a checked KernelSpec ------------------===//
//
// Reads a spec with LLVM's YAML I/O, reports every problem with
// file:line:col through one SourceMgr, fills the `auto` choices and runs the
// hardware rules. Malformed input of any kind ends in a diagnostic, never in
// a crash.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_SPECPARSER_H
#define GEMMC_SPEC_SPECPARSER_H

#include "gemmc/Spec/Rules.h"
#include "gemmc/Spec/Spec.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace gemmc {

class SpecFile {
public:
  /// Reads `path` ("-" = stdin). On failure prints why and returns null.
  static std::unique_ptr<SpecFile> open(llvm::StringRef path,
                                        llvm::raw_ostream &diagOS);
  /// A spec held in memory; `bufferName` is what diagnostics call it.
  static std::unique_ptr<SpecFile> fromString(llvm::StringRef text,
                                              llvm::StringRef bufferName,
                                              llvm::raw_ostream &diagOS);

  /// Parses, resolves `auto` and checks every rule. Prints all diagnostics;
  /// returns false when there was any error.
  bool parse();

  const KernelSpec &spec() const { return spec_; }
  /// The spec as written, before resolveAuto (for reports that show `auto`).
  const KernelSpec &specAsWritten() const { return written_; }

  /// Prints `v` at the location of its field (or the nearest enclosing one).
  void report(const Violation &v,
              llvm::SourceMgr::DiagKind kind = llvm::SourceMgr::DK_Error);
  /// Where the value of dotted `field` starts, falling back to its parent.
  llvm::SMLoc locationOf(llvm::StringRef field) const;
  unsigned errorCount() const { return errors_; }
  llvm::StringRef bufferName() const { return bufferName_; }
  /// The spec's bytes as read (what the manifest's spec hash covers).
  llvm::StringRef text() const { return buffer_.getBuffer(); }

private:
  SpecFile(std::unique_ptr<llvm::MemoryBuffer> buffer,
           llvm::raw_ostream &diagOS);
  /// The YAML's shape before any value is read: checkText, then
  /// checkYamlStructure.
  bool checkStructure();
  /// The bytes: size, NUL and control bytes, UTF-8, tabs in indentation,
  /// bracket depth and empty flow entries.
  bool checkText();
  /// One YAML document, a mapping, every key known (StructureWalker).
  bool checkYamlStructure();
  bool readValues();

  std::unique_ptr<llvm::MemoryBuffer> ownedBuffer_;
  llvm::MemoryBufferRef buffer_;
  std::string bufferName_;
  llvm::SourceMgr srcMgr_;
  llvm::raw_ostream &diagOS_;
  unsigned errors_ = 0;
  llvm::StringMap<llvm::SMLoc> fieldLocs_;
  KernelSpec spec_;
  KernelSpec written_;
};

/// The keys a mapping at `path` ("" = top level, "mainloop", "operands.a")
/// may hold, or an empty list when `path` is not a mapping of the schema.
/// Both lists come from Schema.def.
llvm::ArrayRef<llvm::StringRef> allowedKeys(llvm::StringRef path);
/// Whether dotted `path` is a key of the schema that takes true or false.
bool isBoolKey(llvm::StringRef path);
/// Whether dotted `path` is a key of the schema a spec must give.
bool isRequiredKey(llvm::StringRef path);

} // namespace gemmc

#endif // GEMMC_SPEC_SPECPARSER_H
