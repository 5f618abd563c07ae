// simpass.cpp - the simulation flavour of the pass (`dsmcc --sim`): every
// load, store and atomic that may reach the shared region gets the hooks'
// own test of a simulated reference inline, so that a hit in the simulated
// cache is decided in the program's code, without a call, and only misses,
// window boundaries and scheduling decisions leave it.
//
// The test is not written here: it is libdsm's (dsm/simfront/hook_path.h,
// sim_ref_fast of protocol/sim/sim.h), compiled by the same clang into
// bitcode (dsm/simfront/sim_inline.c -> dsmsim.bc, installed beside this
// plugin) as one function per size and direction, __dsm_sim_refN_W.  The
// pass puts a call to it before each access, links the bitcode's
// functions into the module and inlines every call: the decision is the
// hooks' decision, reference for reference, so statistics do not depend on
// the flavour (tests/sim_inline_pass.sh compares both).
//
// Environment at compile time (set by dsmcc): DSMCHECK_SIM=inline (the
// above) or DSMCHECK_SIM=call (the same references as calls of the gcc
// flavour's hooks, __tsan_readN/writeN: for measurements and the test of
// equal statistics); DSMCHECK_SIM_BC the bitcode; DSMCHECK_SIM_GLOBALS=1
// when every global may be shared (dsmcc --shared-globals); DSMCHECK_STATS=1
// prints per-module counts.
//
// Not instrumented: accesses to the stack (allocas, byval arguments: never
// in the region), to fresh malloc memory, to constants, and to globals
// defined in the module outside the dsm_shared section (unless
// DSMCHECK_SIM_GLOBALS).  So on a machine that
// simulates private references too (Alewife), a --sim binary reports the
// shared ones only.  Sizes without a function of their own (3, 12, 24
// bytes, ...) and memcpy/memmove/memset go to the range hooks as calls.
#include "dsmcheck.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace dsmcheck {

namespace {

struct SimRef {
    Instruction *at; // the reference is made just before it
    Value *ptr;
    Value *len;      // range references (memory intrinsics): the length
    int64_t size;    // else the bytes
    bool write;
};

bool envOn(const char *name)
{
    const char *s = getenv(name);
    return s && *s && strcmp(s, "0") != 0;
}

class SimPass {
    Module &M;
    const DataLayout &DL;
    LLVMContext &C;
    bool inlineMode, sharedGlobals;
    unsigned refs = 0, skipped = 0, ranges = 0, inlined = 0;

    // Never in the region: see the file's comment.
    bool isPrivate(Value *ptr) const
    {
        if (ptr->getType()->getPointerAddressSpace() != 0)
            return true;
        const Value *u = getUnderlyingObject(ptr, 12);
        // a global defined here outside dsm_shared is private; one defined
        // elsewhere may be DSM_SHARED there without saying so here
        if (auto *g = dyn_cast<GlobalVariable>(u))
            return g->isConstant() || (!sharedGlobals && !g->isDeclaration() &&
                                       g->getSection() != "dsm_shared");
        return isStackOrFresh(u);
    }

    void collect(Function &F, SmallVectorImpl<SimRef> &out)
    {
        for (BasicBlock &BB : F)
            for (Instruction &I : BB) {
                if (auto *mi = dyn_cast<MemIntrinsic>(&I)) {
                    if (auto *mt = dyn_cast<MemTransferInst>(mi))
                        if (!isPrivate(mt->getRawSource()))
                            out.push_back({ &I, mt->getRawSource(), mi->getLength(), 0, false });
                    if (!isPrivate(mi->getRawDest()))
                        out.push_back({ &I, mi->getRawDest(), mi->getLength(), 0, true });
                    continue;
                }
                Access a;
                if (!accessOf(DL, I, a))
                    continue;
                if (isPrivate(a.ptr)) {
                    skipped++;
                    continue;
                }
                // an atomic load reads; every other atomic may write (hooks.c)
                out.push_back({ &I, a.ptr, nullptr, a.size, a.need == 2 });
            }
    }

    static bool hasOwnFunction(int64_t n, bool inl)
    {
        return n == 1 || n == 2 || n == 4 || n == 8 || n == 16 || (inl && (n == 32 || n == 64));
    }

    // The call of one reference; returns it when it is to be inlined.
    CallInst *emit(const SimRef &r)
    {
        IRBuilder<> B(r.at);
        Type *VoidTy = Type::getVoidTy(C), *I8P = Type::getInt8PtrTy(C), *I64 = Type::getInt64Ty(C);
        Value *p = B.CreatePointerCast(r.ptr, I8P);
        if (r.len || !hasOwnFunction(r.size, inlineMode)) {
            ranges++;
            FunctionCallee f = M.getOrInsertFunction(
                r.write ? "__tsan_write_range" : "__tsan_read_range", VoidTy, I8P, I64);
            Value *n = r.len ? B.CreateZExtOrTrunc(r.len, I64) : ConstantInt::get(I64, r.size);
            B.CreateCall(f, { p, n });
            return nullptr;
        }
        std::string name = inlineMode ? "__dsm_sim_ref" + std::to_string(r.size) +
                                            (r.write ? "_1" : "_0")
                                      : std::string(r.write ? "__tsan_write" : "__tsan_read") +
                                            std::to_string(r.size);
        FunctionCallee f = M.getOrInsertFunction(name, VoidTy, I8P);
        CallInst *call = B.CreateCall(f, { p });
        // the call carries the access's location (the verifier wants one on
        // an inlinable call in a function with debug information)
        DebugLoc dl = r.at->getDebugLoc();
        if (!dl)
            if (DISubprogram *sp = r.at->getFunction()->getSubprogram())
                dl = DILocation::get(C, 0, 0, sp);
        call->setDebugLoc(dl);
        return inlineMode ? call : nullptr;
    }

    void linkBitcode()
    {
        const char *path = getenv("DSMCHECK_SIM_BC");
        if (!path || !*path)
            report_fatal_error("dsmcheck: DSMCHECK_SIM=inline needs DSMCHECK_SIM_BC (dsmcc sets it)");
        SMDiagnostic err;
        std::unique_ptr<Module> bc = parseIRFile(path, err, C);
        if (!bc)
            report_fatal_error(Twine("dsmcheck: cannot read the inline checks ") + path + ": " +
                               err.getMessage());
        bc->setTargetTriple(M.getTargetTriple());
        bc->setDataLayout(M.getDataLayout());
        if (Linker::linkModules(M, std::move(bc), Linker::Flags::LinkOnlyNeeded))
            report_fatal_error(Twine("dsmcheck: cannot link the inline checks ") + path);
    }

  public:
    explicit SimPass(Module &m)
        : M(m), DL(m.getDataLayout()), C(m.getContext()),
          inlineMode(strcmp(getenv("DSMCHECK_SIM"), "call") != 0),
          sharedGlobals(envOn("DSMCHECK_SIM_GLOBALS"))
    {
    }

    void run()
    {
        SmallVector<CallInst *, 256> calls;
        for (Function &F : M) {
            if (F.isDeclaration() || F.getName().startswith("__dsm_sim_"))
                continue;
            SmallVector<SimRef, 64> rs;
            collect(F, rs);
            for (const SimRef &r : rs) {
                refs++;
                if (CallInst *c = emit(r))
                    calls.push_back(c);
            }
        }
        if (!calls.empty()) {
            linkBitcode();
            for (CallInst *c : calls) {
                InlineFunctionInfo ifi;
                if (!InlineFunction(*c, ifi).isSuccess())
                    report_fatal_error("dsmcheck: an inline check could not be inlined");
                inlined++;
            }
            // the linked definitions served only as bodies to inline
            for (Function &F : make_early_inc_range(M))
                if (F.getName().startswith("__dsm_sim_ref") && !F.isDeclaration() && F.use_empty())
                    F.eraseFromParent();
        }
        if (verifyModule(M, &errs()))
            report_fatal_error("dsmcheck: the simulated module is invalid (a bug of the pass)");
        if (envOn("DSMCHECK_STATS"))
            errs() << "dsmcheck --sim: " << M.getSourceFileName() << ": refs=" << refs
                   << " inlined=" << inlined << " ranges=" << ranges << " private=" << skipped
                   << "\n";
    }
};

} // namespace

PreservedAnalyses DsmSimPass::run(Module &M, ModuleAnalysisManager &)
{
    SimPass(M).run();
    return PreservedAnalyses::none();
}

} // namespace dsmcheck
