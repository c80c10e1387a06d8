//===- SchemaTest.cpp - The pieces expanded from Schema.def --------------===//
//
// Each enum's spellings, the parser's keys per section and the resolved
// Schedule's equality and hash are expanded from include/gemmc/Spec/
// Schema.def; these tests run over the table's own rows, so a row added
// there is tested without touching this file.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/Schedule.h"
#include "gemmc/Spec/SpecParser.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace gemmc;

namespace {
/// name -> parse round trip, choices in declaration order, no spelling twice,
/// and a word that is no spelling is refused.
template <typename T> void checkEnum(const char *type) {
  SCOPED_TRACE(type);
  llvm::ArrayRef<T> values = EnumTraits<T>::values();
  llvm::ArrayRef<llvm::StringRef> choices = EnumTraits<T>::choices();
  ASSERT_FALSE(values.empty());
  ASSERT_EQ(values.size(), choices.size());
  std::set<std::string> seen;
  for (size_t i = 0; i < values.size(); ++i) {
    llvm::StringRef name = EnumTraits<T>::name(values[i]);
    EXPECT_EQ(name, choices[i]);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(seen.insert(name.str()).second) << name.str() << " twice";
    std::optional<T> back = EnumTraits<T>::parse(name);
    ASSERT_TRUE(back.has_value()) << name.str();
    EXPECT_EQ(*back, values[i]) << name.str();
    // Spellings are exact: no case folding.
    EXPECT_FALSE(EnumTraits<T>::parse(name.upper()).has_value() &&
                 name.upper() != name.str());
  }
  EXPECT_FALSE(EnumTraits<T>::parse("no_such_value").has_value());
  EXPECT_FALSE(EnumTraits<T>::parse("").has_value());
}
} // namespace

TEST(Schema, EveryEnumRoundTrips) {
#define GEMMC_ENUM(TYPE, LOWER) checkEnum<TYPE>(#TYPE);
#define GEMMC_EXTERNAL_ENUM GEMMC_ENUM
#include "gemmc/Spec/Schema.def"
}

TEST(Schema, ExternalEnumsListEveryArchOfTheDatabase) {
  // Arch is defined in Target.h; its rows here must follow the devices.
  for (const DeviceInfo &d : allDevices())
    EXPECT_TRUE(llvm::is_contained(EnumTraits<Arch>::values(), d.arch))
        << d.name.str();
}

TEST(Schema, EnumSpellingsOfTheLanguage) {
  // The spellings specs are written in (docs/spec.md); the table must not
  // drift from them.
  EXPECT_EQ(llvm::join(EnumTraits<Arch>::choices(), ","),
            "sm_80,sm_90a,sm_100a");
  EXPECT_EQ(llvm::join(EnumTraits<ElementType>::choices(), ","),
            "f32,tf32,f16,bf16,e4m3,e5m2");
  EXPECT_EQ(llvm::join(EnumTraits<Swizzle>::choices(), ","),
            "auto,none,32b,64b,128b");
  EXPECT_EQ(llvm::join(EnumTraits<KernelSchedule>::choices(), ","),
            "multistage,warp_specialized,warp_specialized_cooperative,"
            "warp_specialized_pingpong");
  // The named functions are the same ones.
  EXPECT_EQ(swizzleName(Swizzle::B128), "128b");
  EXPECT_EQ(parseLoadKind("cp_async"), LoadKind::CpAsync);
  EXPECT_EQ(tileSchedulerKindName(TileSchedulerKind::StreamK), "stream_k");
}

TEST(Schema, KeysPerSection) {
  // The order is the messages' ("expected one of ...") and docs/spec.md's.
  auto keys = [](llvm::StringRef path) {
    return llvm::join(allowedKeys(path), ",");
  };
  EXPECT_EQ(keys(""), "schema_version,name,arch,device,operands,problem,"
                      "tile_shape,cluster_shape,threads,mainloop,"
                      "kernel_schedule,swap_ab,tile_scheduler,epilogue,pdl_wait,"
                      "pdl_launch_dependents,ctas_per_sm");
  EXPECT_EQ(keys("operands"), "a,b,c,accumulator");
  for (const char *op : {"operands.a", "operands.b", "operands.c"})
    EXPECT_EQ(keys(op), "element,layout,scale");
  EXPECT_EQ(keys("problem"), "m,n,k");
  EXPECT_EQ(keys("mainloop"), "stages,load,multicast,smem_swizzle,promotion_interval,fold_columns,fold_group,stage_scales,a_registers,wait_ahead,unroll,a_box_rows");
  EXPECT_EQ(keys("tile_scheduler"), "kind,raster,group,split_k");
  EXPECT_EQ(keys("epilogue"),
            "store,alpha,beta,bias,bias_element,activation,aux,buffers");
  // Values are not mappings; unknown paths have no keys.
  for (const char *p : {"name", "tile_shape", "mainloop.stages", "operands.d",
                        "epilogue.alpha.x", "nonsense"})
    EXPECT_TRUE(allowedKeys(p).empty()) << p;
  EXPECT_TRUE(isBoolKey("mainloop.multicast"));
  EXPECT_TRUE(isBoolKey("epilogue.alpha"));
  EXPECT_TRUE(isBoolKey("epilogue.beta"));
  EXPECT_FALSE(isBoolKey("epilogue.bias"));
  EXPECT_FALSE(isBoolKey("threads"));
  EXPECT_TRUE(isRequiredKey("operands"));
  EXPECT_TRUE(isRequiredKey("operands.c.element"));
  EXPECT_FALSE(isRequiredKey("operands.c.layout"));
  EXPECT_FALSE(isRequiredKey("mainloop"));
}

namespace {
/// A spec giving `path: value` on top of a minimal one, placed in its section.
std::string specWith(llvm::StringRef path, llvm::StringRef value) {
  auto [section, key] = path.rsplit('.');
  if (!path.contains('.'))
    section = "", key = path;
  std::string out = "schema_version: 1\nname: k\narch: sm_90a\n";
  std::string operands = "operands:\n  a: {element: bf16}\n  b: {element: "
                         "bf16, layout: col}\n  c: {element: bf16}\n";
  if (section.starts_with("operands")) {
    // Rewrite one operand (or add accumulator).
    if (section == "operands")
      operands += "  " + key.str() + ": " + value.str() + "\n";
    else {
      char which = section.back();
      std::string line = std::string("  ") + which + ": {";
      line += key == "element"
                  ? "element: " + value.str()
                  : "element: bf16, " + key.str() + ": " + value.str();
      if (which == 'b' && key != "layout")
        line += ", layout: col";
      line += "}\n";
      size_t at = operands.find(std::string("  ") + which + ":");
      operands.replace(at, operands.find('\n', at) + 1 - at, line);
    }
  }
  out += operands;
  if (path != "tile_shape")
    out += "tile_shape: [128, 128, 64]\n";
  if (section.empty() && !path.starts_with("operands") &&
      !llvm::is_contained({"schema_version", "name", "arch"}, path))
    out += key.str() + ": " + value.str() + "\n";
  else if (!section.empty() && !section.starts_with("operands"))
    out += section.str() + ":\n  " + key.str() + ": " + value.str() + "\n";
  return out;
}
} // namespace

TEST(Schema, EveryKeyOfEverySectionIsRead) {
  // A value each key takes; a key the table gains without one here fails
  // the completeness check below.
  const std::map<std::string, std::string> sample = {
      {"device", "h200"},
      {"operands.accumulator", "f32"},
      {"operands.a.element", "bf16"},
      {"operands.a.layout", "row"},
      {"operands.a.scale", "none"},
      {"operands.b.element", "bf16"},
      {"operands.b.layout", "col"},
      {"operands.b.scale", "none"},
      {"operands.c.element", "bf16"},
      {"operands.c.layout", "row"},
      {"operands.c.scale", "none"},
      {"problem.m", "4096"},
      {"problem.n", "dynamic"},
      {"problem.k", "8192"},
      {"tile_shape", "[128, 64, 64]"},
      {"cluster_shape", "[2, 1]"},
      {"threads", "auto"},
      {"mainloop.stages", "3"},
      {"mainloop.load", "tma"},
      {"mainloop.multicast", "false"},
      {"mainloop.smem_swizzle", "128b"},
      {"mainloop.promotion_interval", "4"},
      {"mainloop.fold_columns", "0"},
      {"mainloop.fold_group", "0"},
      {"mainloop.stage_scales", "false"},
      {"mainloop.a_registers", "false"},
      {"mainloop.wait_ahead", "false"},
      {"mainloop.unroll", "1"},
      {"mainloop.a_box_rows", "0"},
      {"kernel_schedule", "warp_specialized"},
      {"swap_ab", "false"},
      {"tile_scheduler.kind", "persistent"},
      {"tile_scheduler.raster", "along_n"},
      {"tile_scheduler.group", "4"},
      {"tile_scheduler.split_k", "1"},
      {"epilogue.store", "direct"},
      {"epilogue.alpha", "true"},
      {"epilogue.beta", "false"},
      {"epilogue.bias", "none"},
      {"epilogue.bias_element", "f16"},
      {"epilogue.activation", "relu"},
      {"epilogue.aux", "false"},
      {"epilogue.buffers", "auto"},
      {"pdl_wait", "before_loads"},
      {"pdl_launch_dependents", "after_prologue"},
      {"ctas_per_sm", "1"},
  };
  // Every leaf key of the table, by walking allowedKeys.
  std::vector<std::string> leaves;
  std::function<void(const std::string &)> walk = [&](const std::string &path) {
    for (llvm::StringRef key : allowedKeys(path)) {
      std::string child = path.empty() ? key.str() : path + "." + key.str();
      if (allowedKeys(child).empty())
        leaves.push_back(child);
      else
        walk(child);
    }
  };
  walk("");
  EXPECT_EQ(leaves.size(), 49u);
  for (const std::string &leaf : leaves) {
    if (leaf == "schema_version" || leaf == "name" || leaf == "arch")
      continue; // in every spec
    auto it = sample.find(leaf);
    ASSERT_NE(it, sample.end()) << "no sample value for " << leaf;
    std::string text = specWith(leaf, it->second);
    std::string diags;
    llvm::raw_string_ostream os(diags);
    auto file = SpecFile::fromString(text, "t.yaml", os);
    EXPECT_TRUE(file->parse()) << leaf << ":\n" << text << diags;
  }
}

namespace {
KernelSpec resolvedSpec() {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  auto file = SpecFile::fromString(
      "schema_version: 1\nname: k\narch: sm_90a\ndevice: h200\n"
      "operands:\n  a: {element: bf16}\n  b: {element: bf16, layout: col}\n"
      "  c: {element: bf16}\ntile_shape: [128, 256, 64]\n"
      "kernel_schedule: warp_specialized_cooperative\n"
      "tile_scheduler: {kind: persistent}\n",
      "t.yaml", os);
  EXPECT_TRUE(file->parse()) << diags;
  return file->spec();
}

/// Another legal-or-not value of the same type, to tell fields apart.
template <typename T> void change(T &v) {
  if constexpr (std::is_enum_v<T>) {
    llvm::ArrayRef<T> all = EnumTraits<T>::values();
    v = all[(llvm::find(all, v) - all.begin() + 1) % all.size()];
  } else if constexpr (std::is_same_v<T, bool>) {
    v = !v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    v += "x";
  } else if constexpr (std::is_integral_v<T>) {
    v += 1;
  } else {
    v[0] += 1; // an integer list
  }
}
} // namespace

TEST(Schedule, ComputedOnceFromTheCanonicalSpec) {
  KernelSpec spec = resolvedSpec();
  Schedule s(spec);
  ASSERT_TRUE(s.valid()) << llvm::join(s.errors(), "\n");
  EXPECT_EQ(s.spec().name, "kernel");
  EXPECT_EQ(s.spec().device, "h200");
  EXPECT_TRUE(s.spec().m.isDynamic());
  EXPECT_EQ(s.resources().smemBytes, computeResources(s.spec()).smemBytes);
  EXPECT_EQ(s.resources().threads, 384);
  EXPECT_EQ(s.abi().params, describeKernelAbi(s.spec()).params);
  EXPECT_EQ(s.abi().dynamicSmemBytes, s.resources().smemBytes);
  // Without a device, the arch's default device is named.
  spec.device = "";
  EXPECT_EQ(Schedule(spec).spec().device, "h100");
  // An unknown device is kept, for the rule to report.
  spec.device = "h300";
  Schedule bad(spec);
  EXPECT_FALSE(bad.valid());
  ASSERT_FALSE(bad.errors().empty());
  EXPECT_EQ(bad.errors()[0].rfind("[device]", 0), 0u) << bad.errors()[0];
}

TEST(Schedule, UnresolvedIsReportedAlone) {
  KernelSpec spec = resolvedSpec();
  spec.mainloop.stages = 0;
  Schedule s(spec);
  ASSERT_EQ(s.errors().size(), 1u);
  EXPECT_EQ(s.errors()[0], "a schedule on IR has every value resolved: stages "
                           "and threads >= 1, load, smem_swizzle and store "
                           "not auto");
}

TEST(Schedule, EqualityAndHashOverEveryAttributeField) {
  KernelSpec spec = resolvedSpec();
  Schedule base(spec);
  EXPECT_TRUE(base == Schedule(spec));
  EXPECT_EQ(hash_value(base), hash_value(Schedule(spec)));
  // Fields IR does not hold do not count.
  KernelSpec other = spec;
  other.name = "other";
  other.m.value = 4096;
  EXPECT_TRUE(base == Schedule(other));
  int fields = 0;
#define GEMMC_ATTR(KEY, PATH, PRESENCE)                                        \
  {                                                                            \
    KernelSpec changed = spec;                                                 \
    change(changed.PATH);                                                      \
    Schedule s(changed);                                                       \
    EXPECT_FALSE(base == s) << #KEY;                                           \
    EXPECT_NE(hash_value(base), hash_value(s)) << #KEY;                        \
    ++fields;                                                                  \
  }
#include "gemmc/Spec/Schema.def"
  EXPECT_EQ(fields, 42);
}

//===----------------------------------------------------------------------===//
// #gemmc.schedule: syntax from the GEMMC_ATTR rows
//===----------------------------------------------------------------------===//

namespace {
struct AttrFixture : ::testing::Test {
  AttrFixture() { ctx.loadDialect<mlir::gemmc::GemmcDialect>(); }
  std::string print(mlir::Attribute a) {
    std::string out;
    llvm::raw_string_ostream os(out);
    a.print(os);
    return out;
  }
  /// Parses `text`; the diagnostics go to `diags`.
  mlir::Attribute parse(const std::string &text) {
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      diags += d.str() + "\n";
      return mlir::success();
    });
    return mlir::parseAttribute(text, &ctx);
  }
  mlir::MLIRContext ctx;
  std::string diags;
};

const char *kPrinted =
    "#gemmc.schedule<arch = \"sm_90a\", device = \"h200\", a = \"bf16\", "
    "a_layout = \"row\", a_scale = \"none\", b = \"bf16\", b_layout = "
    "\"col\", b_scale = \"none\", c = \"bf16\", "
    "accumulator = \"f32\", tile_shape = [128, 256, 64], cluster_shape = "
    "[1, 1], stages = 4, threads = 384, load = \"tma\", multicast = false, "
    "smem_swizzle = \"128b\", promotion_interval = 0, kernel_schedule = "
    "\"warp_specialized_cooperative\", swap_ab = false, tile_scheduler = "
    "\"persistent\", "
    "raster = \"along_m\", group = 8, split_k = 1, store = \"tma\", "
    "alpha = true, beta = false, bias = \"none\", bias_element = \"f32\", "
    "activation = \"none\", aux = false, pdl_wait = \"none\", "
    "pdl_launch_dependents = \"none\", ctas_per_sm = 1, fold_columns = 0, fold_group = 0, stage_scales = false, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>";
} // namespace

TEST_F(AttrFixture, PrintsAndParsesBackEqual) {
  KernelSpec spec = resolvedSpec();
  auto attr = mlir::gemmc::scheduleFromSpec(&ctx, spec);
  ASSERT_TRUE(attr.getResolved().valid());
  EXPECT_EQ(print(attr), kPrinted);
  mlir::Attribute back = parse(kPrinted);
  EXPECT_EQ(back, attr) << diags;
  // The figures are the ones computed when the attribute was made.
  EXPECT_EQ(&attr.getResources(), &attr.getResolved().resources());
  EXPECT_EQ(attr.getResources().threads, 384);
  EXPECT_EQ(attr.getAbi().dynamicSmemBytes, attr.getResources().smemBytes);
  EXPECT_EQ(attr.getSpec().tileScheduler.kind, TileSchedulerKind::Persistent);
  // The wrappers the passes still call.
  auto again = mlir::gemmc::specFromSchedule(
      attr, [&] { return mlir::emitError(mlir::UnknownLoc::get(&ctx)); });
  ASSERT_TRUE(succeeded(again));
  EXPECT_TRUE(Schedule(*again) == attr.getResolved());
}

TEST_F(AttrFixture, OptionalKeysDefaultAsInASpec) {
  // Leaving out every Optional key gives the spec language's defaults.
  mlir::Attribute a = parse(
      "#gemmc.schedule<arch = \"sm_90a\", a = \"bf16\", b = \"bf16\", "
      "b_layout = \"col\", c = \"bf16\", tile_shape = [128, 128, 64], "
      "stages = 4, threads = 256, load = \"tma\", smem_swizzle = \"128b\", "
      "store = \"direct\">");
  ASSERT_TRUE(a) << diags;
  const KernelSpec &s = llvm::cast<mlir::gemmc::ScheduleAttr>(a).getSpec();
  EXPECT_EQ(s.device, "h100");
  EXPECT_EQ(s.kernelSchedule, KernelSchedule::Multistage);
  EXPECT_EQ(s.tileScheduler.group, 8);
  EXPECT_TRUE(s.epilogue.alpha);
}

TEST_F(AttrFixture, ErrorsNameTheKeyAndTheChoices) {
  std::string text = kPrinted;
  text.replace(text.find("\"128b\""), 6, "\"129b\"");
  EXPECT_FALSE(parse(text));
  EXPECT_EQ(diags, "unknown smem_swizzle '129b' (smem_swizzle takes one of "
                   "auto, none, 32b, 64b, 128b)\n");
  diags.clear();
  text = kPrinted;
  text.replace(text.find("stages = 4, "), 12, "");
  EXPECT_FALSE(parse(text));
  EXPECT_EQ(diags, "#gemmc.schedule is missing 'stages'; it must give arch, a, "
                   "b, c, tile_shape, stages, threads, load, smem_swizzle, "
                   "store\n");
  diags.clear();
  text = kPrinted;
  text.replace(text.find("group = 8"), 9, "grupo = 8");
  EXPECT_FALSE(parse(text));
  EXPECT_NE(diags.find("unknown key 'grupo' in #gemmc.schedule"),
            std::string::npos)
      << diags;
  diags.clear();
  text = kPrinted;
  text.replace(text.find("[1, 1]"), 6, "[1, 1, 1]");
  EXPECT_FALSE(parse(text));
  EXPECT_EQ(diags, "cluster_shape has 3 values; it takes 2\n");
}
