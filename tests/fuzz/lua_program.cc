// lua_program: a structure-aware fuzzer of dmlab.system.tensor.
//
// The input bytes are decisions, not text: each byte picks the next
// statement, method, operand or constant, so almost every input is a valid
// Lua program that drives the module's API (constructors from extents,
// nested tables and ranges; views; scalar, component and rounding ops;
// reductions, mmul and conversions; printing and ==; apply/applyIndexed
// with callbacks that error, stop early, return junk or run more
// statements; shuffle with generators; tensors lent by host_test.lend and
// by the harness's fuzz_host, which can revoke a loan and free its buffer
// at any statement, even inside a callback over the lent tensor itself).
// Past the end of the input every decision reads 0, so each program ends.
//
// Every statement runs in its own pcall: a Lua error is a normal outcome
// and the program carries on. A crash, a sanitizer report or a leak is a
// finding. The generated source is printed when FUZZ_PRINT_PROGRAM is set,
// to turn a reproducer into a readable test.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tests/fuzz/decisions.h"
#include "tests/fuzz/fuzz_lua.h"

namespace fuzz {
namespace {

// Tensors and generators live in small pools, so that later statements
// often find what earlier ones made.
constexpr int kTensors = 8;
constexpr int kGenerators = 3;
constexpr int kSlots = 4;  // fuzz_host's slots (fuzz_lua.cc)
constexpr int kMaxStatements = 64;
constexpr int kMaxBlock = 4;  // statements in a callback or a lend body
constexpr int kMaxDepth = 3;  // callbacks and lend bodies inside each other
// Generated programs have no loops, so only an apply over a large tensor
// runs long; a small budget stops it after some 30000 callbacks.
constexpr long kInstructionBudget = 100'000;

constexpr const char* kTypes[] = {"ByteTensor",  "CharTensor",  "Int16Tensor",  "Int32Tensor",
                                  "Int64Tensor", "FloatTensor", "DoubleTensor", "Tensor"};
constexpr const char* kConversions[] = {"byte",  "char",  "int16", "int32",
                                        "int64", "float", "double"};
constexpr const char* kScalarOps[] = {"fill", "add", "sub", "mul", "div"};
constexpr const char* kComponentOps[] = {"copy", "cadd", "csub", "cmul", "cdiv"};
constexpr const char* kReductions[] = {"sum", "product", "lengthSquared"};
constexpr const char* kRounding[] = {"floor", "ceil", "round"};
constexpr const char* kMetadata[] = {"shape", "size", "type", "ownsStorage", "val", "clone"};
// Every method, for calls with the wrong self or wrong arguments.
constexpr const char* kMethods[] = {
    "type",  "size",    "shape",     "ownsStorage", "val",     "select", "narrow",
    "transpose", "reverse", "reshape", "clone",     "byte",    "double", "fill",
    "add",   "div",     "copy",      "cadd",        "cdiv",    "floor",  "clamp",
    "sum",   "product", "lengthSquared", "dot",     "mmul",    "apply",  "applyIndexed",
    "shuffle", "tostring"};
// Doubles that sit on the edges of the element types and of the checks.
constexpr const char* kSpecialNumbers[] = {
    "0",      "1",       "-1",     "2",       "0.5",     "-0.5",   "3",        "7",
    "127",    "128",     "255",    "256",     "-128",    "-129",   "32767",    "65536",
    "2^31-1", "2^31",    "2^32",   "2^53",    "2^63",    "-2^63",  "1e308",    "-1e308",
    "1e-310", "(0/0)",   "(1/0)",  "(-1/0)",  "1.5",     "-2^31",  "2^64",     "4.9e-324"};
// Extents, dimensions and indices: mostly small and valid, sometimes not.
constexpr const char* kOddIntegers[] = {"0",    "-1",   "5",      "1.5",   "(0/0)", "(1/0)",
                                        "2^31", "2^53", "-2^63",  "2^62",  "100",   "nil",
                                        "'2'",  "{}",   "true",   "65"};

class ProgramWriter {
 public:
  explicit ProgramWriter(Decisions& in) : in_(in) {}

  std::string Write() {
    out_ << "local tensor = require 'dmlab.system.tensor'\n"
            "local random = require 'dmlab.system.random'\n"
            "local host_test = require 'dmlab.system.host_test'\n"
            "local T = {tensor.DoubleTensor{{1, 2}, {3, 4}}, tensor.ByteTensor(3, 2):fill(7),\n"
            "           tensor.Int32Tensor{range = {6}}, tensor.FloatTensor(2, 3, 2)}\n"
            "local G = {random, random.Generator(1), random.Generator(2)}\n"
            "local V\n";
    for (int i = 0; i < kMaxStatements && !in_.done(); ++i) Statement(0);
    return std::string(absl::string_view(out_));
  }

 private:
  // A statement in its own pcall, so that an error ends only it.
  void Statement(int depth) {
    out_ << "pcall(function() ";
    Body(depth);
    out_ << " end)\n";
  }

  void Block(int depth) {
    const int n = in_.Pick(kMaxBlock + 1);
    for (int i = 0; i < n; ++i) Statement(depth + 1);
  }

  void Body(int depth) {
    switch (in_.Pick(24)) {
      case 0: out_ << Slot() << " = tensor." << Type() << "(" << Extents() << ")"; break;
      case 1: out_ << Slot() << " = tensor." << Type() << "(" << Nested(0) << ")"; break;
      case 2:
        out_ << Slot() << " = tensor." << Type() << "{range = {" << Number();
        if (in_.Pick(2)) out_ << ", " << Number();
        if (in_.Pick(2)) out_ << ", " << Number();
        out_ << "}}";
        break;
      case 3: out_ << Slot() << " = " << Tensor() << View(); break;
      case 4: out_ << Tensor() << ":" << PickFrom(in_, kScalarOps) << "(" << Operand() << ")"; break;
      case 5: out_ << Tensor() << ":" << PickFrom(in_, kComponentOps) << "(" << Tensor() << ")"; break;
      case 6:
        if (in_.Pick(2)) {
          out_ << Tensor() << ":" << PickFrom(in_, kRounding) << "()";
        } else {
          out_ << Tensor() << ":clamp(" << Bound() << ", " << Bound() << ")";
        }
        break;
      case 7:
        if (in_.Pick(2)) {
          out_ << "V = " << Tensor() << ":" << PickFrom(in_, kReductions) << "()";
        } else {
          out_ << "V = " << Tensor() << ":dot(" << Tensor() << ")";
        }
        break;
      case 8: out_ << Slot() << " = " << Tensor() << ":mmul(" << Tensor() << ")"; break;
      case 9: out_ << Slot() << " = " << Tensor() << ":" << PickFrom(in_, kConversions) << "()"; break;
      case 10:
        if (in_.Pick(2)) {
          out_ << "V = tostring(" << Tensor() << ")";
        } else {
          out_ << "V = " << Tensor() << ":tostring(";
          if (in_.Pick(2)) out_ << Integer();
          out_ << ")";
        }
        break;
      case 11: out_ << "V = " << Tensor() << " == " << Tensor(); break;
      case 12:
        out_ << Tensor() << (in_.Pick(2) ? ":apply(" : ":applyIndexed(");
        Callback(depth);
        out_ << ")";
        break;
      case 13:
        out_ << Tensor() << ":shuffle(";
        out_ << (in_.Pick(4) ? Generator() : Value()) << ")";
        break;
      case 14:
        out_ << Slot() << " = fuzz_host.lend(" << 1 + in_.Pick(kSlots) << ", '" << Type() << "', {"
             << Extents() << "}, " << in_.Byte() << ")";
        break;
      case 15: out_ << "fuzz_host.revoke(" << 1 + in_.Pick(kSlots) << ")"; break;
      case 16:
        if (depth >= kMaxDepth) break;
        out_ << "host_test.lend('" << Type() << "', {" << Extents() << "}, " << Number()
             << ", function(t) " << Slot() << " = t\n";
        Block(depth);
        out_ << "end)";
        break;
      case 17:
        switch (in_.Pick(3)) {
          case 0: out_ << "V = " << Tensor() << ":val()"; break;
          case 1: out_ << Tensor() << ":val(" << Number() << ")"; break;
          default: out_ << Tensor() << ":val(" << Nested(0) << ")"; break;
        }
        break;
      case 18: out_ << "V = " << Tensor() << ":" << PickFrom(in_, kMetadata) << "()"; break;
      case 19: RandomStatement(); break;
      case 20: out_ << "collectgarbage()"; break;
      case 21:  // Wrong self, or wrong arguments.
        out_ << "V = " << Tensor() << (in_.Pick(2) ? "." : ":") << PickFrom(in_, kMethods) << "("
             << Value() << ", " << Value() << ", " << Value() << ")";
        break;
      case 22:
        out_ << Slot() << " = ";
        out_ << (in_.Pick(2) ? std::string("nil") : Tensor());
        break;
      default: out_ << "V = " << Tensor() << "(" << Indices() << ")"; break;
    }
  }

  std::string View() {
    Text view;
    switch (in_.Pick(7)) {
      case 0: view << ":select(" << Integer() << ", " << Integer() << ")"; break;
      case 1: view << ":narrow(" << Integer() << ", " << Integer() << ", " << Integer() << ")"; break;
      case 2: view << ":transpose(" << Integer() << ", " << Integer() << ")"; break;
      case 3: view << ":reverse(" << Integer() << ")"; break;
      case 4: view << ":reshape{" << Extents() << "}"; break;
      case 5: view << "(" << Indices() << ")"; break;
      default: view << ":clone()"; break;
    }
    return std::string(absl::string_view(view));
  }

  void RandomStatement() {
    const std::string gen = Generator();
    switch (in_.Pick(7)) {
      case 0: out_ << gen << ":seed(" << Number() << ")"; break;
      case 1: out_ << "V = " << gen << ":uniformInt(" << Number() << ", " << Number() << ")"; break;
      case 2: out_ << "V = " << gen << ":uniformReal(" << Number() << ", " << Number() << ")"; break;
      case 3:
        out_ << "V = " << gen << ":normalDistribution(" << Number() << ", " << Number() << ")";
        break;
      case 4: out_ << "V = " << gen << ":discreteDistribution(" << Nested(2) << ")"; break;
      case 5:
        out_ << "G[" << 1 + in_.Pick(kGenerators) << "] = random.Generator(";
        if (in_.Pick(2)) out_ << Number();
        out_ << ")";
        break;
      default: out_ << "V = tostring(" << gen << ")"; break;
    }
  }

  // An apply callback: returns values, stops early, errors, or runs more
  // statements (which may revoke the very tensor being walked).
  void Callback(int depth) {
    switch (in_.Pick(9)) {
      case 0: out_ << "function(v) return " << Number() << " end"; break;
      case 1: out_ << "function(v) return v, false end"; break;
      case 2: out_ << "function(v) error('callback error') end"; break;
      case 3: out_ << "function(v) error({}) end"; break;
      case 4: out_ << "function(v, i) return " << Value() << ", " << Value() << " end"; break;
      case 5: out_ << "function(v) coroutine.yield(v) end"; break;
      case 6: out_ << Value(); break;
      default:
        if (depth >= kMaxDepth) {
          out_ << "function(v) return v end";
          break;
        }
        out_ << "function(v, i)\n";
        Block(depth);
        out_ << "return " << (in_.Pick(2) ? std::string("v") : Number()) << " end";
        break;
    }
  }

  const char* Type() { return PickFrom(in_, kTypes); }
  std::string Slot() { return absl::StrCat("T[", 1 + in_.Pick(kTensors), "]"); }
  std::string Tensor() { return Slot(); }
  std::string Generator() { return absl::StrCat("G[", 1 + in_.Pick(kGenerators), "]"); }

  std::string Number() {
    if (in_.Pick(4) == 0) return absl::StrCat((in_.Byte() - 128) / 4.0);
    return PickFrom(in_, kSpecialNumbers);
  }

  // Mostly 1 to 4, sometimes an edge or a non-integer.
  std::string Integer() {
    if (in_.Pick(8) == 0) return PickFrom(in_, kOddIntegers);
    return absl::StrCat(1 + in_.Pick(4));
  }

  std::string Extents() {
    Text extents;
    const int rank = in_.Pick(5);
    for (int i = 0; i < rank; ++i) extents << (i ? ", " : "") << Integer();
    return std::string(absl::string_view(extents));
  }

  std::string Indices() {
    Text indices;
    indices << Integer();
    for (int i = in_.Pick(3); i > 0; --i) indices << ", " << Integer();
    return std::string(absl::string_view(indices));
  }

  std::string Bound() { return in_.Pick(3) ? Number() : "nil"; }

  // A number, or one per entry of the last dimension.
  std::string Operand() { return in_.Pick(3) ? Number() : Nested(2); }

  // Nested tables of numbers: mostly rectangular, sometimes ragged, holding
  // a non-number, or holding themselves.
  std::string Nested(int level) {
    switch (in_.Pick(16)) {
      case 0: return "(function() local s = {1, 2} s[3] = s return s end)()";
      case 1: return "{{1, 2}, {3}}";
      case 2: return "{1, 'x'}";
      case 3: return "{n = 1}";
      default: break;
    }
    const int length = in_.Pick(4);
    const bool leaves = level >= 2 || in_.Pick(2);
    Text table;
    table << "{";
    for (int i = 0; i < length; ++i) {
      table << (i ? ", " : "") << (leaves ? Number() : Nested(level + 1));
    }
    table << "}";
    return std::string(absl::string_view(table));
  }

  // Any argument at all.
  std::string Value() {
    switch (in_.Pick(9)) {
      case 0: return "nil";
      case 1: return "true";
      case 2: return "'str'";
      case 3: return Nested(1);
      case 4: return Tensor();
      case 5: return Generator();
      case 6: return "function() end";
      case 7: return Integer();
      default: return Number();
    }
  }

  Decisions& in_;
  Text out_;
};

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Decisions decisions(data, size);
  const std::string program = fuzz::ProgramWriter(decisions).Write();
  if (std::getenv("FUZZ_PRINT_PROGRAM") != nullptr) std::fputs(program.c_str(), stderr);
  fuzz::FuzzLua lua(fuzz::kInstructionBudget);
  lua.Run(program, "=lua_program");
  return 0;
}
