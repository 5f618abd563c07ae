// dsmcheck.h - what the three parts of the block-mode pass share: the
// module's view of libdsm's compiler interface (dsm/access.h), the options
// and the counts.  dsmcheck.cpp is the pass (per-access checks, grouped per
// basic block), loops.cpp versions loops whose accesses can be checked once
// per loop entry (range checks), globals.cpp keeps the region's globals in
// registers (read at function entry and after whatever may run dsm_init).
// simpass.cpp is the simulation flavour (dsmcc --sim), which shares only
// accessOf and the plugin.
#ifndef DSMCHECK_H
#define DSMCHECK_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace dsmcheck {

// Keep in step with dsm/access.h (DSM_BLK_ABI, DSM_BLK_MAX_SPAN,
// DSM_BLK_RANGES).
constexpr unsigned kAbi = 3;
// In the slow path's need (never in the inline compare): the group needing
// write access also reads (a load, an atomic read-modify-write or a
// compare-exchange among its members), for the migratory rule.
constexpr int kAlsoReads = 4;
constexpr int64_t kMaxSpan = 64;
constexpr unsigned kRanges = 8;          // range windows per thread
constexpr unsigned kWindowWords = 1 + 2 * kRanges;

struct Stats {
    unsigned accesses = 0, priv = 0, checks = 0, grouped = 0, memops = 0, threads = 0;
    unsigned loops = 0, ranged = 0; // loops versioned, accesses they cover
    unsigned unbounded = 0;         // accesses of versioned loops checked in the fast copy
};

// The four region globals (struct dsm_blk_globals) as seen at one point of
// a function.
struct RegionGlobals {
    llvm::Value *base, *size, *shift, *table;
};

// The module-wide context of the pass.
struct Ctx {
    llvm::Module &M;
    const llvm::DataLayout &DL;
    llvm::LLVMContext &C;
    llvm::Type *I8, *I32, *I64, *I8P;
    llvm::StructType *GlobTy;
    llvm::ArrayType *WinTy;
    llvm::Constant *Glob, *Window; // __dsm_blk, __dsm_blk_window
    bool Opt;   // DSMCHECK_OPT: all optimisations (else one check per access)
    bool Loops; // DSMCHECK_LOOPS: range checks of loops (needs Opt)
    bool Debug; // DSMCHECK_DEBUG: say which loops are versioned, and why not
    bool Count; // DSMCHECK_COUNT: count the entries of fast and checked loops
    struct Counter {
        llvm::GlobalVariable *gv; // [2 x i64]: fast, checked entries
        std::string name;
    };
    llvm::SmallVector<Counter, 8> counters;
    // Accesses in a versioned loop's fast copy that no range bounds (a
    // scatter through loaded indices): each keeps a check whose slow path
    // knows the open range windows (__dsm_blk_miss_ranges); the value is
    // the needs of the windows, 2 bits per window (loops.cpp).
    llvm::DenseMap<llvm::Instruction *, unsigned> inRanges;
    Stats st;

    explicit Ctx(llvm::Module &m);

    // Never in the region: the stack, the program's globals, fresh malloc memory.
    bool isPrivate(llvm::Value *ptr) const;
    // &__dsm_blk_window[i]
    llvm::Value *windowSlot(llvm::IRBuilder<> &B, unsigned i) const;
};

// Per function: the region globals live in four allocas until promote()
// turns them into SSA values (globals.cpp).
class FunctionGlobals {
    Ctx &X;
    llvm::Function &F;
    llvm::AllocaInst *slot[4] = {};

  public:
    FunctionGlobals(Ctx &x, llvm::Function &f) : X(x), F(f) {}
    // The globals at the builder's insertion point.
    RegionGlobals get(llvm::IRBuilder<> &B);
    // Reads the globals at entry and after every instruction that may let
    // this thread see a dsm_init (mayInit), then promotes the allocas.
    void promote(const llvm::SmallPtrSetImpl<llvm::Instruction *> &reloadAfter);
};

// Instructions after which the globals must be read again: calls that may
// reach dsm_init, and synchronisation (atomics, fences, volatile loads),
// through which another thread's dsm_init becomes visible.  The call
// analysis is module-wide (globals.cpp).
class InitAnalysis {
    llvm::DenseMap<const llvm::Function *, bool> mayInit;
    llvm::DenseMap<const llvm::CallBase *, bool> externalCalls;
    bool callMayInit(const llvm::CallBase &cb) const;

  public:
    explicit InitAnalysis(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
    bool needsReload(const llvm::Instruction &I) const;
};

// Loop versioning (loops.cpp): returns the blocks of the fast copies, whose
// accesses need no per-access check.
void versionLoops(Ctx &X, FunctionGlobals &G, llvm::Function &F,
                  llvm::FunctionAnalysisManager &FAM,
                  llvm::SmallPtrSetImpl<llvm::BasicBlock *> &fastBlocks);

// The underlying object u is never in the region: an alloca, a byval
// argument, fresh malloc memory.
bool isStackOrFresh(const llvm::Value *u);

// Calls that are not calls for the checks: no memory touched, no runtime.
bool isBenignIntrinsic(const llvm::Instruction &I);

// A load, store or atomic of the program: its address, bytes, alignment and
// the state it needs (1 read, 2 write).
struct Access {
    llvm::Instruction *inst;
    llvm::Value *ptr;
    int64_t size;
    unsigned align;
    int need;
};
bool accessOf(const llvm::DataLayout &DL, llvm::Instruction &I, Access &a);

// The pass's own loads and stores (window, state table, globals) carry
// !dsm.check, so no later step mistakes them for the program's.
void markOurs(llvm::Instruction *I);
bool isOurs(const llvm::Instruction &I);

// The simulation flavour (simpass.cpp, DSMCHECK_SIM set): the hooks' test
// of a simulated reference inlined before every access that may be shared.
struct DsmSimPass : llvm::PassInfoMixin<DsmSimPass> {
    llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
    static bool isRequired() { return true; }
};

} // namespace dsmcheck

#endif
