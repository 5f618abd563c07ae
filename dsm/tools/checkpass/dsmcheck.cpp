// dsmcheck.cpp - the LLVM pass of block mode (`dsmcc --dsm`): every load and
// store that may reach the DSM region gets an inline access check against
// libdsm's per-block state table, as in Blizzard-S and Shasta.  Loaded into
// clang with -fpass-plugin=dsmcheck.so; runs last in the optimisation
// pipeline, so it checks the accesses that survived optimisation.
//
// The check of an access (or of a group of accesses, below) at address A
// spanning N bytes, needing state NEED (1 read, 2 write):
//     off = A - base                               base, size, shift, table:
//     if (off < size) {                            the region's globals, read
//         __dsm_blk_window[0] = A                  at function entry (globals.cpp)
//         s = table[off >> shift]  (and the block of A+N-1 when it may differ)
//         if (s < NEED) __dsm_blk_miss(A, N, NEED) slow path, returns with the
//     }                                             window set and the state good
//     <the access(es)>
//     __dsm_blk_window[0] = 0
// (R: 4 when a group needing write access also reads, for the runtime's
// migratory rule; the inline compare uses NEED alone.)
// The window store before the state load is what lets the runtime's
// progress thread take a block away safely (doc/protocol.md, "Block mode"):
// it lowers the state byte, runs membarrier, then waits for every window
// naming the block to close.  The window store and the state load are
// volatile and fenced (compiler-only) from the access, so codegen keeps the
// order; the hardware order comes from membarrier on the runtime's side.
//
// Optimisations (Shasta):
//   - accesses whose underlying object is an alloca, a global variable or
//     fresh malloc memory are never in the region and get no check;
//   - the region's globals stay in registers (globals.cpp);
//   - loops whose accesses scalar evolution can bound are versioned: one
//     range check per loop entry, a copy of the loop without per-access
//     checks under range windows (loops.cpp);
//   - accesses in one basic block off the same base pointer whose bytes lie
//     within a 64-byte window, with no call between them, share one check
//     (at most two blocks when the span is at most 32 bytes, else the block
//     distance is tested too);
//   - a check that follows another in the same basic block with no call in
//     between takes the window over (its store replaces the address: the
//     earlier accesses are done, in program order, and x86 keeps stores in
//     order and loads before later stores), so only the last one of such a
//     run closes it.
// memcpy/memmove/memset on possibly shared memory become loads and stores
// when they move at most 64 bytes (struct copies), else calls to libdsm's
// chunked versions, which copy block by block under windows; memcmp and
// bcmp calls go to libdsm's chunked compare.
// pthread_create becomes __dsm_blk_pthread_create, so every thread of the
// program is known to the runtime before its first check.  A constructor
// tells libdsm the program is checked (__dsm_blk_register), which turns
// block mode on.
//
// Environment at compile time: DSMCHECK_STATS=1 prints per-module counts
// on stderr; DSMCHECK_OPT=0 turns the optimisations off (one check per
// access, the globals read at each), DSMCHECK_LOOPS=0 only the loop
// versioning, for measurements and tests; DSMCHECK_DEBUG=1 says which
// loops are versioned and why the others are not; DSMCHECK_COUNT=1 makes
// the program count the entries of each versioned loop's two copies and
// print them at exit (tests, tuning).
#include "dsmcheck.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace dsmcheck {

static bool envFlag(const char *name, bool dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    return strcmp(s, "0") != 0;
}

Ctx::Ctx(Module &m) : M(m), DL(m.getDataLayout()), C(m.getContext())
{
    Opt = envFlag("DSMCHECK_OPT", true);
    Loops = Opt && envFlag("DSMCHECK_LOOPS", true);
    Debug = envFlag("DSMCHECK_DEBUG", false);
    Count = Loops && envFlag("DSMCHECK_COUNT", false);
    I8 = Type::getInt8Ty(C);
    I32 = Type::getInt32Ty(C);
    I64 = Type::getInt64Ty(C);
    I8P = Type::getInt8PtrTy(C);
    // struct dsm_blk_globals { base, size, shift, state } (dsm/access.h)
    GlobTy = StructType::get(C, { I64, I64, I64, I8P });
    // (a module that defines them, libdsm's own access.c, has its own
    // types for them: then the constant is a cast of its definition)
    Glob = M.getOrInsertGlobal("__dsm_blk", GlobTy);
    WinTy = ArrayType::get(I64, kWindowWords);
    Window = M.getOrInsertGlobal("__dsm_blk_window", WinTy);
    if (auto *gv = dyn_cast<GlobalVariable>(Window->stripPointerCasts()))
        gv->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
}

bool Ctx::isPrivate(Value *ptr) const
{
    if (!Opt)
        return false;
    if (ptr->getType()->getPointerAddressSpace() != 0)
        return true;
    const Value *u = getUnderlyingObject(ptr, 12);
    return isa<GlobalVariable>(u) || isStackOrFresh(u);
}

bool isStackOrFresh(const Value *u)
{
    if (isa<AllocaInst>(u))
        return true;
    if (auto *a = dyn_cast<Argument>(u))
        return a->hasByValAttr();
    if (auto *cb = dyn_cast<CallBase>(u))
        if (Function *f = cb->getCalledFunction()) {
            StringRef n = f->getName();
            return n == "malloc" || n == "calloc" || n == "realloc" || n == "strdup" ||
                   n == "aligned_alloc";
        }
    return false;
}

Value *Ctx::windowSlot(IRBuilder<> &B, unsigned i) const
{
    return B.CreateConstInBoundsGEP2_32(WinTy, Window, 0, i);
}

void markOurs(Instruction *I)
{
    I->setMetadata("dsm.check", MDNode::get(I->getContext(), {}));
}

bool isOurs(const Instruction &I) { return I.getMetadata("dsm.check") != nullptr; }

bool isBenignIntrinsic(const Instruction &I)
{
    auto *ii = dyn_cast<IntrinsicInst>(&I);
    if (!ii || isa<MemIntrinsic>(ii))
        return false;
    switch (ii->getIntrinsicID()) {
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
        return true;
    default:
        return ii->doesNotAccessMemory(); // arithmetic: fmuladd, sqrt, umax...
    }
}

bool accessOf(const DataLayout &DL, Instruction &I, Access &a)
{
    Type *t = nullptr;
    if (auto *l = dyn_cast<LoadInst>(&I)) {
        a = { &I, l->getPointerOperand(), 0, (unsigned)l->getAlign().value(), 1 };
        t = l->getType();
    } else if (auto *s = dyn_cast<StoreInst>(&I)) {
        a = { &I, s->getPointerOperand(), 0, (unsigned)s->getAlign().value(), 2 };
        t = s->getValueOperand()->getType();
    } else if (auto *r = dyn_cast<AtomicRMWInst>(&I)) {
        a = { &I, r->getPointerOperand(), 0, (unsigned)r->getAlign().value(), 2 };
        t = r->getValOperand()->getType();
    } else if (auto *x = dyn_cast<AtomicCmpXchgInst>(&I)) {
        a = { &I, x->getPointerOperand(), 0, (unsigned)x->getAlign().value(), 2 };
        t = x->getCompareOperand()->getType();
    } else {
        return false;
    }
    TypeSize ts = DL.getTypeStoreSize(t);
    if (ts.isScalable())
        return false;
    a.size = (int64_t)ts.getFixedSize();
    return a.size > 0;
}

namespace {

struct Group {
    Value *base;
    int64_t lo, hi; // bytes [base+lo, base+hi)
    int need;
    bool mayStraddle;
    Instruction *first, *last;
    unsigned members;
    // the next group of the same block follows with no call in between: its
    // window store replaces this window, no need to close it first
    bool handOver;
    bool reads; // a member reads (a load or an atomic read-modify-write)
    // in a versioned loop's fast copy: the needs of its range windows
    // (Ctx::inRanges), its slow path __dsm_blk_miss_ranges
    unsigned rangeNeeds;
};

class Checker {
    Ctx &X;
    InitAnalysis &IA;
    FunctionAnalysisManager &FAM;
    FunctionCallee Miss, MissRanges, Memcpy, Memmove, Memset, Memcmp;

  public:
    Checker(Ctx &x, InitAnalysis &ia, FunctionAnalysisManager &fam) : X(x), IA(ia), FAM(fam)
    {
        Type *VoidTy = Type::getVoidTy(X.C);
        Miss = X.M.getOrInsertFunction("__dsm_blk_miss", VoidTy, X.I64, X.I64, X.I32);
        if (Function *F = dyn_cast<Function>(Miss.getCallee())) {
            F->addFnAttr(Attribute::Cold);
            F->addFnAttr(Attribute::NoInline);
        }
        MissRanges =
            X.M.getOrInsertFunction("__dsm_blk_miss_ranges", VoidTy, X.I64, X.I64, X.I32, X.I32);
        if (Function *F = dyn_cast<Function>(MissRanges.getCallee())) {
            F->addFnAttr(Attribute::Cold);
            F->addFnAttr(Attribute::NoInline);
        }
        Memcpy = X.M.getOrInsertFunction("__dsm_blk_memcpy", VoidTy, X.I8P, X.I8P, X.I64);
        Memmove = X.M.getOrInsertFunction("__dsm_blk_memmove", VoidTy, X.I8P, X.I8P, X.I64);
        Memset = X.M.getOrInsertFunction("__dsm_blk_memset", VoidTy, X.I8P, X.I32, X.I64);
        Memcmp = X.M.getOrInsertFunction("__dsm_blk_memcmp", X.I32, X.I8P, X.I8P, X.I64);
    }

    // A call ends the groups: it may enter the runtime (a window must never
    // be open there) or change the region's globals (dsm_init).
    static bool endsGroup(Instruction &I) { return isa<CallBase>(I) && !isBenignIntrinsic(I); }

    // memcpy/memmove/memset of a few bytes (struct copies) become loads and
    // stores, checked like any other, rather than calls to the chunked copy
    // (a loop with a call is never versioned, and a call costs more than
    // the copy).  All loads come before the stores: right for memmove too.
    bool expandSmallMemop(MemIntrinsic *mi)
    {
        auto *len = dyn_cast<ConstantInt>(mi->getLength());
        if (!X.Opt || mi->isVolatile() || !len || len->isZero() ||
            len->getZExtValue() > (uint64_t)kMaxSpan)
            return false;
        uint64_t n = len->getZExtValue();
        IRBuilder<> B(mi);
        Value *dst = B.CreatePointerCast(mi->getRawDest(), X.I8P);
        Align da = mi->getDestAlign().valueOrOne();
        SmallVector<std::pair<uint64_t, unsigned>, 8> pieces; // offset, bytes
        for (uint64_t off = 0; off < n;) {
            unsigned w = n - off >= 8 ? 8 : n - off >= 4 ? 4 : n - off >= 2 ? 2 : 1;
            pieces.push_back({ off, w });
            off += w;
        }
        auto at = [&](Value *base, uint64_t off, unsigned w) {
            Value *p = off ? B.CreateConstInBoundsGEP1_64(X.I8, base, off) : base;
            return B.CreatePointerCast(p, Type::getIntNPtrTy(X.C, 8 * w));
        };
        if (auto *mt = dyn_cast<MemTransferInst>(mi)) {
            Value *src = B.CreatePointerCast(mt->getRawSource(), X.I8P);
            Align sa = mt->getSourceAlign().valueOrOne();
            SmallVector<Value *, 8> vals;
            for (auto &pc : pieces)
                vals.push_back(B.CreateAlignedLoad(Type::getIntNTy(X.C, 8 * pc.second),
                                                   at(src, pc.first, pc.second),
                                                   commonAlignment(sa, pc.first)));
            for (size_t i = 0; i < pieces.size(); i++)
                B.CreateAlignedStore(vals[i], at(dst, pieces[i].first, pieces[i].second),
                                     commonAlignment(da, pieces[i].first));
        } else {
            Value *byte = cast<MemSetInst>(mi)->getValue();
            for (auto &pc : pieces) {
                Type *T = Type::getIntNTy(X.C, 8 * pc.second);
                Value *v = B.CreateMul(B.CreateZExt(byte, T),
                                       ConstantInt::get(T, APInt::getSplat(8 * pc.second, APInt(8, 1))));
                B.CreateAlignedStore(v, at(dst, pc.first, pc.second), commonAlignment(da, pc.first));
            }
        }
        mi->eraseFromParent();
        return true;
    }

    void instrumentFunction(Function &F)
    {
        if (F.isDeclaration())
            return;
        SmallVector<MemIntrinsic *, 8> small;
        for (BasicBlock &BB : F)
            for (Instruction &I : BB)
                if (auto *mi = dyn_cast<MemIntrinsic>(&I)) {
                    Value *src = nullptr;
                    if (auto *mt = dyn_cast<MemTransferInst>(mi))
                        src = mt->getRawSource();
                    if (!X.isPrivate(mi->getRawDest()) || (src && !X.isPrivate(src)))
                        small.push_back(mi);
                }
        for (MemIntrinsic *mi : small)
            expandSmallMemop(mi);
        // where the globals must be read again, decided on the program's
        // own instructions before any is added
        SmallPtrSet<Instruction *, 16> reload;
        if (X.Opt)
            for (BasicBlock &BB : F)
                for (Instruction &I : BB)
                    if (IA.needsReload(I))
                        reload.insert(&I);
        FunctionGlobals G(X, F);
        SmallPtrSet<BasicBlock *, 32> fast;
        if (X.Loops)
            versionLoops(X, G, F, FAM, fast);

        SmallVector<MemIntrinsic *, 8> memops;
        SmallVector<CallBase *, 4> creates, compares;
        SmallVector<Group, 32> groups;
        for (BasicBlock &BB : F) {
            // a loop's fast copy, or the range check itself: only the
            // accesses no range bounds get checks (loops.cpp)
            bool fastBB = fast.count(&BB);
            bool open = false;
            Group g{};
            auto close = [&]() {
                if (open)
                    groups.push_back(g);
                open = false;
            };
            // a new group right after the last one takes its window over
            auto handOver = [&]() {
                if (open && X.Opt)
                    g.handOver = true;
                close();
            };
            for (Instruction &I : BB) {
                if (isOurs(I))
                    continue;
                unsigned rangeNeeds = 0;
                if (fastBB) {
                    auto it = X.inRanges.find(&I);
                    if (it == X.inRanges.end())
                        continue; // covered by the range check, or not an access
                    rangeNeeds = it->second;
                }
                if (auto *mi = dyn_cast<MemIntrinsic>(&I)) {
                    close();
                    memops.push_back(mi);
                    continue;
                }
                if (auto *cb = dyn_cast<CallBase>(&I)) {
                    Function *f = cb->getCalledFunction();
                    if (f && f->getName() == "pthread_create" && isa<CallInst>(cb))
                        creates.push_back(cb);
                    if (f && (f->getName() == "memcmp" || f->getName() == "bcmp") &&
                        isa<CallInst>(cb) && cb->arg_size() == 3)
                        compares.push_back(cb);
                }
                if (endsGroup(I)) {
                    close();
                    continue;
                }
                Access a;
                if (!accessOf(X.DL, I, a))
                    continue;
                X.st.accesses++;
                if (X.isPrivate(a.ptr)) {
                    X.st.priv++;
                    continue;
                }
                int64_t off = 0;
                Value *base = X.Opt ? GetPointerBaseWithConstantOffset(a.ptr, off, X.DL) : a.ptr;
                // an aligned access of at most 32 bytes never crosses a block (>= 32 B)
                bool straddle = !(a.size <= 32 && (int64_t)a.align >= a.size &&
                                  isPowerOf2_64((uint64_t)a.size));
                if (open && X.Opt && base == g.base && rangeNeeds == g.rangeNeeds) {
                    int64_t lo = std::min(g.lo, off), hi = std::max(g.hi, off + a.size);
                    if (hi - lo <= kMaxSpan) {
                        g.lo = lo, g.hi = hi;
                        g.need = std::max(g.need, a.need);
                        g.reads = g.reads || !isa<StoreInst>(&I);
                        g.mayStraddle = true; // several accesses: test both ends
                        g.last = &I;
                        g.members++;
                        X.st.grouped++;
                        continue;
                    }
                }
                handOver();
                g = Group{ base, off, off + a.size, a.need, straddle, &I, &I, 1, false, !isa<StoreInst>(&I),
                           rangeNeeds };
                if (a.size > kMaxSpan) {
                    // wider than a window: the slow path checks every block
                    g.mayStraddle = true;
                }
                open = true;
            }
            close();
        }
        for (Group &g : groups)
            emitCheck(F, G, g);
        for (MemIntrinsic *mi : memops)
            rewriteMemop(mi);
        for (CallBase *cb : creates)
            rewriteThreadCreate(cb);
        for (CallBase *cb : compares)
            rewriteCompare(cb);
        if (X.Opt)
            G.promote(reload);
    }

    void emitCheck(Function &F, FunctionGlobals &G, Group &g)
    {
        X.st.checks++;
        IRBuilder<> B(g.first);
        Value *baseI8 = B.CreatePointerCast(g.base, X.I8P);
        Value *addrP = g.lo ? B.CreateConstGEP1_64(X.I8, baseI8, g.lo) : baseI8;
        Value *addr = B.CreatePtrToInt(addrP, X.I64, "dsm.addr");
        int64_t span = g.hi - g.lo;
        RegionGlobals rg = G.get(B);
        Value *off = B.CreateSub(addr, rg.base, "dsm.off");
        Value *inRegion = B.CreateICmpULT(off, rg.size, "dsm.in");

        MDBuilder MDB(X.C);
        // split: Head -> [check] -> Cont(first...)
        Instruction *term = SplitBlockAndInsertIfThen(inRegion, g.first, false,
                                                      MDB.createBranchWeights(1, 1000));
        BasicBlock *Check = term->getParent();
        BasicBlock *Cont = term->getSuccessor(0);
        IRBuilder<> CB(term);
        CB.SetCurrentDebugLocation(g.first->getDebugLoc()); // profilers: the check is the access's
        markOurs(CB.CreateStore(addr, X.windowSlot(CB, 0), /*isVolatile=*/true));
        Value *idx0 = CB.CreateLShr(off, rg.shift);
        LoadInst *s0 = CB.CreateLoad(X.I8, CB.CreateInBoundsGEP(X.I8, rg.table, idx0), true, "dsm.st");
        markOurs(s0);
        Value *needV = ConstantInt::get(X.I8, g.need);
        Value *ok;
        if (g.mayStraddle) {
            Value *last = CB.CreateAdd(off, ConstantInt::get(X.I64, span - 1));
            Value *idx1 = CB.CreateLShr(last, rg.shift);
            LoadInst *s1 =
                CB.CreateLoad(X.I8, CB.CreateInBoundsGEP(X.I8, rg.table, idx1), true, "dsm.st1");
            markOurs(s1);
            ok = CB.CreateAnd(CB.CreateICmpUGE(s0, needV), CB.CreateICmpUGE(s1, needV));
            if (span > 32) { // may cover three blocks of 32 bytes
                Value *near = CB.CreateICmpULE(CB.CreateSub(idx1, idx0), ConstantInt::get(X.I64, 1));
                ok = CB.CreateAnd(ok, near);
            }
            if (span > kMaxSpan)
                ok = ConstantInt::getFalse(X.C); // the slow path checks it all
        } else {
            ok = CB.CreateICmpUGE(s0, needV);
        }
        // Check: br ok, Cont, Slow
        BasicBlock *Slow = BasicBlock::Create(X.C, "dsm.miss", &F, Cont);
        term->eraseFromParent();
        IRBuilder<> TB(Check);
        TB.SetCurrentDebugLocation(g.first->getDebugLoc());
        TB.CreateCondBr(ok, Cont, Slow, MDB.createBranchWeights(1000, 1));
        IRBuilder<> SB(Slow);
        SB.SetCurrentDebugLocation(g.first->getDebugLoc());
        int slowNeed = g.need | (g.need == 2 && g.reads ? kAlsoReads : 0);
        if (g.rangeNeeds)
            SB.CreateCall(MissRanges, { addr, ConstantInt::get(X.I64, span), ConstantInt::get(X.I32, slowNeed),
                                        ConstantInt::get(X.I32, g.rangeNeeds) });
        else
            SB.CreateCall(Miss, { addr, ConstantInt::get(X.I64, span), ConstantInt::get(X.I32, slowNeed) });
        SB.CreateBr(Cont);

        // the accesses stay between the check and the closing of the window
        IRBuilder<> FB(g.first);
        FB.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        IRBuilder<> EB(g.last->getNextNode());
        EB.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        if (!g.handOver)
            markOurs(EB.CreateStore(ConstantInt::get(X.I64, 0), X.windowSlot(EB, 0), /*isVolatile=*/true));
    }

    void rewriteMemop(MemIntrinsic *mi)
    {
        Value *dst = mi->getRawDest();
        Value *src = nullptr;
        if (auto *mt = dyn_cast<MemTransferInst>(mi))
            src = mt->getRawSource();
        if (X.isPrivate(dst) && (!src || X.isPrivate(src)))
            return;
        if (mi->isVolatile())
            return; // left alone: volatile block copies have their own rules
        X.st.memops++;
        IRBuilder<> B(mi);
        Value *len = B.CreateZExtOrTrunc(mi->getLength(), X.I64);
        Value *d = B.CreatePointerCast(dst, X.I8P);
        if (isa<MemSetInst>(mi)) {
            Value *v = B.CreateZExt(cast<MemSetInst>(mi)->getValue(), X.I32);
            B.CreateCall(Memset, { d, v, len });
        } else {
            Value *s = B.CreatePointerCast(src, X.I8P);
            B.CreateCall(isa<MemMoveInst>(mi) ? Memmove : Memcpy, { d, s, len });
        }
        mi->eraseFromParent();
    }

    // memcmp/bcmp read memory the checks never see (libc): on possibly
    // shared operands they go to libdsm's chunked compare.
    void rewriteCompare(CallBase *cb)
    {
        Value *a = cb->getArgOperand(0), *b = cb->getArgOperand(1);
        if (X.isPrivate(a) && X.isPrivate(b))
            return;
        X.st.memops++;
        IRBuilder<> B(cb);
        Value *r = B.CreateCall(Memcmp, { B.CreatePointerCast(a, X.I8P), B.CreatePointerCast(b, X.I8P),
                                          B.CreateZExtOrTrunc(cb->getArgOperand(2), X.I64) });
        cb->replaceAllUsesWith(B.CreateSExtOrTrunc(r, cb->getType()));
        cb->eraseFromParent();
    }

    void rewriteThreadCreate(CallBase *cb)
    {
        Function *pc = cb->getCalledFunction();
        FunctionCallee ours =
            X.M.getOrInsertFunction("__dsm_blk_pthread_create", pc->getFunctionType());
        cb->setCalledFunction(ours);
        X.st.threads++;
    }

    void addConstructor()
    {
        FunctionType *VT = FunctionType::get(Type::getVoidTy(X.C), false);
        Function *ctor =
            Function::Create(VT, GlobalValue::InternalLinkage, "dsm.blk.module_init", &X.M);
        IRBuilder<> B(BasicBlock::Create(X.C, "entry", ctor));
        FunctionCallee reg =
            X.M.getOrInsertFunction("__dsm_blk_register", Type::getVoidTy(X.C), X.I32);
        B.CreateCall(reg, { ConstantInt::get(X.I32, kAbi) });
        B.CreateRetVoid();
        appendToGlobalCtors(X.M, ctor, 0);
        if (X.counters.empty())
            return;
        // DSMCHECK_COUNT: one line per versioned loop on stderr at exit
        Function *dtor =
            Function::Create(VT, GlobalValue::InternalLinkage, "dsm.blk.module_counts", &X.M);
        IRBuilder<> D(BasicBlock::Create(X.C, "entry", dtor));
        FunctionCallee dprintf = X.M.getOrInsertFunction(
            "dprintf", FunctionType::get(X.I32, { X.I32, X.I8P }, true));
        Value *fmt = D.CreateGlobalStringPtr("dsmcheck-count: %s fast=%ld checked=%ld\n");
        for (Ctx::Counter &c : X.counters) {
            Type *T = c.gv->getValueType();
            Value *f = D.CreateLoad(X.I64, D.CreateConstInBoundsGEP2_32(T, c.gv, 0, 0));
            Value *k = D.CreateLoad(X.I64, D.CreateConstInBoundsGEP2_32(T, c.gv, 0, 1));
            D.CreateCall(dprintf, { ConstantInt::get(X.I32, 2), fmt, D.CreateGlobalStringPtr(c.name), f, k });
        }
        D.CreateRetVoid();
        appendToGlobalDtors(X.M, dtor, 0);
    }
};

struct DsmCheckPass : PassInfoMixin<DsmCheckPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM)
    {
        Ctx X(M);
        InitAnalysis IA(M, MAM);
        auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
        Checker ck(X, IA, FAM);
        SmallVector<Function *, 64> fns;
        for (Function &F : M)
            if (!F.isDeclaration())
                fns.push_back(&F);
        for (Function *F : fns) {
            ck.instrumentFunction(*F);
            FAM.invalidate(*F, PreservedAnalyses::none());
        }
        ck.addConstructor();
        // a broken module must stop the build here, not miscompile later
        if (verifyModule(M, &errs()))
            report_fatal_error("dsmcheck: the checked module is invalid (a bug of the pass)");
        if (envFlag("DSMCHECK_STATS", false))
            errs() << "dsmcheck: " << M.getSourceFileName() << ": accesses=" << X.st.accesses
                   << " private=" << X.st.priv << " checks=" << X.st.checks
                   << " grouped=" << X.st.grouped << " loops=" << X.st.loops
                   << " ranged=" << X.st.ranged << " unbounded=" << X.st.unbounded
                   << " memops=" << X.st.memops
                   << " threads=" << X.st.threads << "\n";
        return PreservedAnalyses::none();
    }
    static bool isRequired() { return true; }
};

} // namespace

} // namespace dsmcheck

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return { LLVM_PLUGIN_API_VERSION, "dsmcheck", "2", [](PassBuilder &PB) {
                PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
                    const char *sim = getenv("DSMCHECK_SIM"); // dsmcc --sim: simpass.cpp
                    if (sim && *sim)
                        MPM.addPass(dsmcheck::DsmSimPass());
                    else
                        MPM.addPass(dsmcheck::DsmCheckPass());
                });
            } };
}
