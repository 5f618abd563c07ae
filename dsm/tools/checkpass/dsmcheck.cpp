// dsmcheck.cpp - the LLVM pass of block mode (`dsmcc --dsm`): every load and
// store that may reach the DSM region gets an inline access check against
// libdsm's per-block state table, as in Blizzard-S and Shasta.  Loaded into
// clang with -fpass-plugin=dsmcheck.so; runs last in the optimisation
// pipeline, so it checks the accesses that survived optimisation.
//
// The check of an access (or of a group of accesses, below) at address A
// spanning N bytes, needing state NEED (1 read, 2 write):
//     off = A - __dsm_blk.base
//     if (off < __dsm_blk.size) {                  range test
//         __dsm_blk_window[0] = A                  "this thread is in a window"
//         s = state[off >> shift]  (and the block of A+N-1 when it may differ)
//         if (s < NEED) __dsm_blk_miss(A, N, NEED|R) slow path, returns with the
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
// Optimisations (Shasta): accesses whose underlying object is an alloca, a
// global variable or fresh malloc memory are never in the region and get no
// check; accesses in one basic block off the same base pointer whose bytes
// lie within a 64-byte window, with no call between them, share one check
// (at most two blocks: both state bytes are tested).  memcpy/memmove/memset
// on possibly shared memory become calls to libdsm's chunked versions, which
// copy block by block under windows.  pthread_create becomes
// __dsm_blk_pthread_create, so every thread of the program is known to the
// runtime before its first check.  A constructor tells libdsm the program
// is checked (__dsm_blk_register), which turns block mode on.
//
// Environment at compile time: DSMCHECK_STATS=1 prints per-module counts
// on stderr; DSMCHECK_OPT=0 turns the optimisations off (one check per
// access), for measurements and tests.
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace {

// Keep in step with dsm/access.h (DSM_BLK_ABI, DSM_BLK_MAX_SPAN).
constexpr unsigned kAbi = 2;
// In the slow path's need (never in the inline compare): the group needing
// write access also reads (a load, an atomic read-modify-write or a
// compare-exchange among its members), for the migratory rule.
constexpr int kAlsoReads = 4;
constexpr int64_t kMaxSpan = 64;

struct Access {
    Instruction *inst;
    Value *ptr;
    int64_t size;
    unsigned align;
    int need; // 1 read, 2 write
};

struct Group {
    Value *base;
    int64_t lo, hi; // bytes [base+lo, base+hi)
    int need;
    bool mayStraddle;
    Instruction *first, *last;
    unsigned members;
    bool reads; // a member reads (a load or an atomic read-modify-write)
};

struct Stats {
    unsigned accesses = 0, priv = 0, checks = 0, grouped = 0, memops = 0, threads = 0;
};

bool envFlag(const char *name, bool dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    return strcmp(s, "0") != 0;
}

class Checker {
    Module &M;
    const DataLayout &DL;
    LLVMContext &C;
    Type *I8, *I32, *I64, *I8P;
    StructType *GlobTy;
    GlobalVariable *Glob, *Window;
    FunctionCallee Miss, Memcpy, Memmove, Memset, ThreadCreate;
    bool Opt;

  public:
    Stats st;

    explicit Checker(Module &m) : M(m), DL(m.getDataLayout()), C(m.getContext())
    {
        Opt = envFlag("DSMCHECK_OPT", true);
        I8 = Type::getInt8Ty(C);
        I32 = Type::getInt32Ty(C);
        I64 = Type::getInt64Ty(C);
        I8P = Type::getInt8PtrTy(C);
        // struct dsm_blk_globals { base, size, shift, state } (dsm/access.h)
        GlobTy = StructType::get(C, { I64, I64, I64, I8P });
        Glob = cast<GlobalVariable>(M.getOrInsertGlobal("__dsm_blk", GlobTy));
        ArrayType *WinTy = ArrayType::get(I64, 2);
        Window = cast<GlobalVariable>(M.getOrInsertGlobal("__dsm_blk_window", WinTy));
        Window->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
        Type *VoidTy = Type::getVoidTy(C);
        Miss = M.getOrInsertFunction("__dsm_blk_miss", VoidTy, I64, I64, I32);
        if (Function *F = dyn_cast<Function>(Miss.getCallee())) {
            F->addFnAttr(Attribute::Cold);
            F->addFnAttr(Attribute::NoInline);
        }
        Memcpy = M.getOrInsertFunction("__dsm_blk_memcpy", VoidTy, I8P, I8P, I64);
        Memmove = M.getOrInsertFunction("__dsm_blk_memmove", VoidTy, I8P, I8P, I64);
        Memset = M.getOrInsertFunction("__dsm_blk_memset", VoidTy, I8P, I32, I64);
    }

    // Never in the region: the stack, the program's globals, fresh malloc memory.
    bool isPrivate(Value *ptr)
    {
        if (!Opt)
            return false;
        if (ptr->getType()->getPointerAddressSpace() != 0)
            return true;
        const Value *u = getUnderlyingObject(ptr, 12);
        if (isa<AllocaInst>(u) || isa<GlobalVariable>(u))
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

    bool accessOf(Instruction &I, Access &a)
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

    // A call ends the groups: it may enter the runtime (a window must never
    // be open there) or change the region's globals (dsm_init).
    static bool endsGroup(Instruction &I)
    {
        if (auto *cb = dyn_cast<CallBase>(&I)) {
            if (auto *ii = dyn_cast<IntrinsicInst>(cb)) {
                switch (ii->getIntrinsicID()) {
                case Intrinsic::dbg_declare:
                case Intrinsic::dbg_value:
                case Intrinsic::dbg_label:
                case Intrinsic::lifetime_start:
                case Intrinsic::lifetime_end:
                case Intrinsic::assume:
                case Intrinsic::experimental_noalias_scope_decl:
                    return false;
                default:
                    return true;
                }
            }
            return true;
        }
        return false;
    }

    void instrumentFunction(Function &F)
    {
        if (F.isDeclaration())
            return;
        SmallVector<MemIntrinsic *, 8> memops;
        SmallVector<CallBase *, 4> creates;
        SmallVector<Group, 32> groups;
        for (BasicBlock &BB : F) {
            bool open = false;
            Group g{};
            auto close = [&]() {
                if (open)
                    groups.push_back(g);
                open = false;
            };
            for (Instruction &I : BB) {
                if (auto *mi = dyn_cast<MemIntrinsic>(&I)) {
                    close();
                    memops.push_back(mi);
                    continue;
                }
                if (auto *cb = dyn_cast<CallBase>(&I)) {
                    Function *f = cb->getCalledFunction();
                    if (f && f->getName() == "pthread_create" && isa<CallInst>(cb))
                        creates.push_back(cb);
                }
                if (endsGroup(I)) {
                    close();
                    continue;
                }
                Access a;
                if (!accessOf(I, a))
                    continue;
                st.accesses++;
                if (isPrivate(a.ptr)) {
                    st.priv++;
                    continue;
                }
                int64_t off = 0;
                Value *base = Opt ? GetPointerBaseWithConstantOffset(a.ptr, off, DL) : a.ptr;
                // an aligned access of at most 32 bytes never crosses a block (>= 32 B)
                bool straddle = !(a.size <= 32 && (int64_t)a.align >= a.size &&
                                  isPowerOf2_64((uint64_t)a.size));
                if (open && Opt && base == g.base) {
                    int64_t lo = std::min(g.lo, off), hi = std::max(g.hi, off + a.size);
                    if (hi - lo <= kMaxSpan) {
                        g.lo = lo, g.hi = hi;
                        g.need = std::max(g.need, a.need);
                        g.reads = g.reads || !isa<StoreInst>(&I);
                        g.mayStraddle = true; // several accesses: test both ends
                        g.last = &I;
                        g.members++;
                        st.grouped++;
                        continue;
                    }
                }
                close();
                g = Group{ base, off, off + a.size, a.need, straddle, &I, &I, 1,
                           !isa<StoreInst>(&I) };
                if (a.size > kMaxSpan) {
                    // wider than a window: the slow path checks every block
                    g.mayStraddle = true;
                }
                open = true;
            }
            close();
        }
        for (Group &g : groups)
            emitCheck(F, g);
        for (MemIntrinsic *mi : memops)
            rewriteMemop(mi);
        for (CallBase *cb : creates)
            rewriteThreadCreate(cb);
    }

    void emitCheck(Function &F, Group &g)
    {
        st.checks++;
        IRBuilder<> B(g.first);
        Value *baseI8 = B.CreatePointerCast(g.base, I8P);
        Value *addrP = g.lo ? B.CreateConstGEP1_64(I8, baseI8, g.lo) : baseI8;
        Value *addr = B.CreatePtrToInt(addrP, I64, "dsm.addr");
        int64_t span = g.hi - g.lo;
        Value *gbase = B.CreateLoad(I64, B.CreateStructGEP(GlobTy, Glob, 0), "dsm.base");
        Value *gsize = B.CreateLoad(I64, B.CreateStructGEP(GlobTy, Glob, 1), "dsm.size");
        Value *off = B.CreateSub(addr, gbase, "dsm.off");
        Value *inRegion = B.CreateICmpULT(off, gsize, "dsm.in");

        BasicBlock *Head = g.first->getParent();
        MDBuilder MDB(C);
        // split: Head -> [check] -> Cont(first...)
        Instruction *term = SplitBlockAndInsertIfThen(inRegion, g.first, false,
                                                      MDB.createBranchWeights(1, 1000));
        (void)Head;
        BasicBlock *Check = term->getParent();
        BasicBlock *Cont = term->getSuccessor(0);
        IRBuilder<> CB(term);
        Value *win0 = CB.CreateConstInBoundsGEP2_32(Window->getValueType(), Window, 0, 0);
        CB.CreateStore(addr, win0, /*isVolatile=*/true);
        Value *shift = CB.CreateLoad(I64, CB.CreateStructGEP(GlobTy, Glob, 2), "dsm.shift");
        Value *table = CB.CreateLoad(I8P, CB.CreateStructGEP(GlobTy, Glob, 3), "dsm.table");
        Value *idx0 = CB.CreateLShr(off, shift);
        LoadInst *s0 = CB.CreateLoad(I8, CB.CreateInBoundsGEP(I8, table, idx0), true, "dsm.st");
        Value *needV = ConstantInt::get(I8, g.need);
        Value *ok;
        if (g.mayStraddle) {
            Value *last = CB.CreateAdd(off, ConstantInt::get(I64, span - 1));
            Value *idx1 = CB.CreateLShr(last, shift);
            LoadInst *s1 =
                CB.CreateLoad(I8, CB.CreateInBoundsGEP(I8, table, idx1), true, "dsm.st1");
            Value *both = CB.CreateAnd(CB.CreateICmpUGE(s0, needV), CB.CreateICmpUGE(s1, needV));
            Value *near = CB.CreateICmpULE(CB.CreateSub(idx1, idx0), ConstantInt::get(I64, 1));
            ok = CB.CreateAnd(both, near);
            if (span > kMaxSpan)
                ok = ConstantInt::getFalse(C); // the slow path checks it all
        } else {
            ok = CB.CreateICmpUGE(s0, needV);
        }
        // Check: br ok, Cont, Slow
        BasicBlock *Slow = BasicBlock::Create(C, "dsm.miss", &F, Cont);
        term->eraseFromParent();
        IRBuilder<> TB(Check);
        TB.CreateCondBr(ok, Cont, Slow, MDB.createBranchWeights(1000, 1));
        IRBuilder<> SB(Slow);
        int slowNeed = g.need | (g.need == 2 && g.reads ? kAlsoReads : 0);
        SB.CreateCall(Miss, { addr, ConstantInt::get(I64, span), ConstantInt::get(I32, slowNeed) });
        SB.CreateBr(Cont);

        // the accesses stay between the check and the closing of the window
        IRBuilder<> FB(g.first);
        FB.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        IRBuilder<> EB(g.last->getNextNode());
        EB.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        Value *win0b = EB.CreateConstInBoundsGEP2_32(Window->getValueType(), Window, 0, 0);
        EB.CreateStore(ConstantInt::get(I64, 0), win0b, /*isVolatile=*/true);
    }

    void rewriteMemop(MemIntrinsic *mi)
    {
        Value *dst = mi->getRawDest();
        Value *src = nullptr;
        if (auto *mt = dyn_cast<MemTransferInst>(mi))
            src = mt->getRawSource();
        if (isPrivate(dst) && (!src || isPrivate(src)))
            return;
        if (mi->isVolatile())
            return; // left alone: volatile block copies have their own rules
        st.memops++;
        IRBuilder<> B(mi);
        Value *len = B.CreateZExtOrTrunc(mi->getLength(), I64);
        Value *d = B.CreatePointerCast(dst, I8P);
        if (isa<MemSetInst>(mi)) {
            Value *v = B.CreateZExt(cast<MemSetInst>(mi)->getValue(), I32);
            B.CreateCall(Memset, { d, v, len });
        } else {
            Value *s = B.CreatePointerCast(src, I8P);
            B.CreateCall(isa<MemMoveInst>(mi) ? Memmove : Memcpy, { d, s, len });
        }
        mi->eraseFromParent();
    }

    void rewriteThreadCreate(CallBase *cb)
    {
        Function *pc = cb->getCalledFunction();
        FunctionCallee ours = M.getOrInsertFunction("__dsm_blk_pthread_create", pc->getFunctionType());
        cb->setCalledFunction(ours);
        st.threads++;
    }

    void addConstructor()
    {
        FunctionType *VT = FunctionType::get(Type::getVoidTy(C), false);
        Function *ctor = Function::Create(VT, GlobalValue::InternalLinkage, "dsm.blk.module_init", &M);
        IRBuilder<> B(BasicBlock::Create(C, "entry", ctor));
        FunctionCallee reg = M.getOrInsertFunction("__dsm_blk_register", Type::getVoidTy(C), I32);
        B.CreateCall(reg, { ConstantInt::get(I32, kAbi) });
        B.CreateRetVoid();
        appendToGlobalCtors(M, ctor, 0);
    }
};

struct DsmCheckPass : PassInfoMixin<DsmCheckPass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
    {
        Checker ck(M);
        SmallVector<Function *, 64> fns;
        for (Function &F : M)
            if (!F.isDeclaration())
                fns.push_back(&F);
        for (Function *F : fns)
            ck.instrumentFunction(*F);
        ck.addConstructor();
        if (envFlag("DSMCHECK_STATS", false))
            errs() << "dsmcheck: " << M.getSourceFileName() << ": accesses=" << ck.st.accesses
                   << " private=" << ck.st.priv << " checks=" << ck.st.checks
                   << " grouped=" << ck.st.grouped << " memops=" << ck.st.memops
                   << " threads=" << ck.st.threads << "\n";
        return PreservedAnalyses::none();
    }
    static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return { LLVM_PLUGIN_API_VERSION, "dsmcheck", "1", [](PassBuilder &PB) {
                PB.registerOptimizerLastEPCallback(
                    [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(DsmCheckPass()); });
            } };
}
