// globals.cpp - the region's globals (__dsm_blk: base, size, shift, state
// table) kept in registers by the block-mode pass instead of read at every
// check.
//
// Why it is safe: the globals are written once, by dsm_init (dsm/access.c,
// dsm_blk_start), and never after.  A thread can only hold a pointer into
// the region after dsm_init, and it learns of dsm_init either by calling it
// (or something that calls it) or by synchronising with the thread that
// did.  So each function reads the globals at its entry and again after
// every instruction through which this thread may see dsm_init happen:
//   - a call that may reach dsm_init: anything but intrinsics, libdsm's own
//     calls other than dsm_init, functions that only read memory, C
//     library functions that take no callback, and functions of this module
//     proven (by a fixed point over the module) to call none of these;
//   - synchronisation: fences, atomic instructions, volatile loads (a flag
//     polled by hand).
// Between two such points no store of this program can change the globals,
// so the values read at the last point are the current ones.  The reads go
// to four allocas, which mem2reg turns into SSA values at the end; loads
// nobody uses are deleted.
#include "dsmcheck.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace dsmcheck {

RegionGlobals FunctionGlobals::get(IRBuilder<> &B)
{
    static const char *const names[4] = { "dsm.base", "dsm.size", "dsm.shift", "dsm.table" };
    Type *tys[4] = { X.I64, X.I64, X.I64, X.I8P };
    Value *v[4];
    if (!X.Opt) { // one read of the globals per check
        for (unsigned i = 0; i < 4; i++) {
            LoadInst *l = B.CreateLoad(tys[i], B.CreateStructGEP(X.GlobTy, X.Glob, i), names[i]);
            markOurs(l);
            v[i] = l;
        }
        return { v[0], v[1], v[2], v[3] };
    }
    if (!slot[0]) {
        IRBuilder<> E(&F.getEntryBlock(), F.getEntryBlock().begin());
        for (unsigned i = 0; i < 4; i++)
            slot[i] = E.CreateAlloca(tys[i], nullptr, names[i]);
    }
    for (unsigned i = 0; i < 4; i++) {
        LoadInst *l = B.CreateLoad(tys[i], slot[i], names[i]);
        markOurs(l);
        v[i] = l;
    }
    return { v[0], v[1], v[2], v[3] };
}

void FunctionGlobals::promote(const SmallPtrSetImpl<Instruction *> &reloadAfter)
{
    if (!slot[0])
        return;
    Type *tys[4] = { X.I64, X.I64, X.I64, X.I8P };
    SmallVector<LoadInst *, 64> reads;
    auto readAt = [&](Instruction *before) {
        IRBuilder<> B(before);
        for (unsigned i = 0; i < 4; i++) {
            LoadInst *l = B.CreateLoad(tys[i], B.CreateStructGEP(X.GlobTy, X.Glob, i));
            markOurs(l);
            reads.push_back(l);
            B.CreateStore(l, slot[i]);
        }
    };
    // at entry, right after the allocas (they head the entry block)
    readAt(slot[3]->getNextNode());
    for (Instruction *I : reloadAfter) {
        if (auto *inv = dyn_cast<InvokeInst>(I)) {
            BasicBlock *to = inv->getNormalDest();
            if (!to->getSinglePredecessor())
                to = SplitEdge(inv->getParent(), to);
            readAt(&*to->getFirstInsertionPt());
        } else if (!I->isTerminator()) {
            readAt(I->getNextNode());
        }
    }
    DominatorTree DT(F);
    PromoteMemToReg({ slot[0], slot[1], slot[2], slot[3] }, DT);
    for (LoadInst *l : reads)
        if (l->use_empty())
            l->eraseFromParent();
}

// ---- which instructions may let this thread see dsm_init ----

namespace {

// C library functions that call back into the program.
bool takesCallback(const Function &f)
{
    static const StringSet<> names = { "qsort", "qsort_r", "bsearch", "lfind", "lsearch", "tsearch",
                                       "twalk", "atexit", "on_exit", "__cxa_atexit", "pthread_once",
                                       "pthread_create", "signal", "sigaction", "ftw", "nftw",
                                       "scandir", "dl_iterate_phdr", "setjmp", "_setjmp",
                                       "sigsetjmp", "__sigsetjmp", "longjmp", "siglongjmp" };
    if (names.count(f.getName()))
        return true;
    for (Type *t : f.getFunctionType()->params())
        if (t->isPointerTy() && !t->isOpaquePointerTy() && t->getPointerElementType()->isFunctionTy())
            return true;
    return false;
}

} // namespace

InitAnalysis::InitAnalysis(Module &M, ModuleAnalysisManager &MAM)
{
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    SmallVector<Function *, 64> defined;
    for (Function &F : M)
        if (!F.isDeclaration()) {
            defined.push_back(&F);
            mayInit[&F] = false;
        }
    // What the module's functions call outside the module, decided once.
    DenseMap<const CallBase *, bool> external;
    for (Function *F : defined) {
        const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(*F);
        for (Instruction &I : instructions(*F)) {
            auto *cb = dyn_cast<CallBase>(&I);
            if (!cb || isa<IntrinsicInst>(cb))
                continue;
            auto *f = dyn_cast<Function>(cb->getCalledOperand()->stripPointerCasts());
            if (f && !f->isDeclaration())
                continue; // decided by the fixed point
            bool may = true;
            LibFunc lf;
            if (!f)
                may = true; // through a pointer: anything
            else if (f->getName() == "dsm_init")
                may = true;
            else if (f->getName().startswith("dsm_") || f->getName().startswith("__dsm_"))
                may = false; // libdsm: only dsm_init writes the globals
            else if (cb->onlyReadsMemory() || f->onlyReadsMemory() ||
                     f->onlyAccessesInaccessibleMemory())
                may = false;
            else if (TLI.getLibFunc(*f, lf) && TLI.has(lf) && !takesCallback(*f))
                may = false; // the C library does not call the program's dsm_init
            external[cb] = may;
        }
    }
    externalCalls = std::move(external);
    // Fixed point: a function may init when one of its calls may.
    for (bool changed = true; changed;) {
        changed = false;
        for (Function *F : defined) {
            if (mayInit[F])
                continue;
            for (Instruction &I : instructions(*F))
                if (auto *cb = dyn_cast<CallBase>(&I))
                    if (callMayInit(*cb)) {
                        mayInit[F] = true;
                        changed = true;
                        break;
                    }
        }
    }
}

bool InitAnalysis::callMayInit(const CallBase &cb) const
{
    if (isa<IntrinsicInst>(cb))
        return false;
    auto *f = dyn_cast<Function>(cb.getCalledOperand()->stripPointerCasts());
    if (f && !f->isDeclaration()) {
        auto it = mayInit.find(f);
        return it == mayInit.end() || it->second;
    }
    auto it = externalCalls.find(&cb);
    return it == externalCalls.end() || it->second;
}

bool InitAnalysis::needsReload(const Instruction &I) const
{
    if (auto *cb = dyn_cast<CallBase>(&I))
        return callMayInit(*cb);
    if (auto *fe = dyn_cast<FenceInst>(&I))
        return fe->getSyncScopeID() != SyncScope::SingleThread;
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        return true;
    if (auto *l = dyn_cast<LoadInst>(&I))
        return l->isVolatile() || l->isAtomic();
    return false;
}

} // namespace dsmcheck
