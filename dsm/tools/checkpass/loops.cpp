// loops.cpp - loop-level checks of the block-mode pass (Shasta's range
// checks): a loop whose possibly shared accesses all have addresses that
// scalar evolution can bound over the whole loop is versioned.  Before the
// loop, a range check tests every block of each bounded span once; when
// they are all good the loop runs in a copy without any per-access check,
// under range windows that stay open until it exits; otherwise the
// original loop runs with its per-access checks (dsmcheck.cpp).
//
// Before the loop (at most kRanges spans: accesses a constant distance
// apart share one, spans off one pointer are joined when there are more):
//     if (a divisor of the bounds is 0)            -> checked loop
//     if (trip count < worth it)                   -> checked loop
//     for each span [lo, hi):
//         outside the region                       -> nothing to check
//         partly inside, or sparse (more blocks
//         than 4 per iteration of the body + 8:
//         Plan::bodyCount)                         -> checked loop
//         __dsm_blk_window[2+2r] = hi; [1+2r] = lo    open range window r
//         every state byte of the span >= need, else close, -> checked loop
//     fast copy of the loop; on its exit: close the range windows
//
// Why the windows stay safe (doc/protocol.md, "Block mode"): a range window
// is opened before the state bytes are read, so the runtime lowering a
// state byte either sees it (and waits until it closes) or the range check
// sees the lowered byte.  A window open over a loop must close soon and
// without help from the runtime, so a loop is versioned only when
//   - scalar evolution knows the trip count of the loop and of every loop
//     inside it when it is entered: its exit cannot wait for shared memory
//     that another node writes (a spin on a flag has no computable count),
//     and the body runs a bounded number of times;
//   - it contains no call other than intrinsics that touch no memory (no
//     way into the runtime, where this thread could wait for a node whose
//     invalidation waits for this window), no volatile or atomic access, no
//     fence (synchronisation belongs outside windows);
//   - it has an access that may be shared with a bounded span.
// An access it cannot bound (a scatter through loaded indices, radix's
// dst[count[d]++]) keeps its own check in the fast copy, whose slow path
// (__dsm_blk_miss_ranges) closes the range windows before it waits and
// reopens them with their blocks good again before it returns, so the rest
// of the fast copy stays covered.
// The fast copy is never versioned again; the checked copy's inner loops
// are (outer loops are tried first: one check per entry of the whole nest
// when its spans are dense, the inner loop's check otherwise).
#include "dsmcheck.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace dsmcheck {

namespace {

// smin/smax that pick the answer when the two differ by a constant (the
// common case of accesses off one pointer), which SCEV alone does not, not
// knowing that addresses do not wrap.
const SCEV *smin2(ScalarEvolution &SE, const SCEV *a, const SCEV *b)
{
    if (auto *d = dyn_cast<SCEVConstant>(SE.getMinusSCEV(a, b)))
        return d->getAPInt().isNonPositive() ? a : b;
    return SE.getSMinExpr(a, b);
}

const SCEV *smax2(ScalarEvolution &SE, const SCEV *a, const SCEV *b)
{
    if (auto *d = dyn_cast<SCEVConstant>(SE.getMinusSCEV(a, b)))
        return d->getAPInt().isNonNegative() ? a : b;
    return SE.getSMaxExpr(a, b);
}

// The smallest and largest value an integer expression takes over every
// iteration of the loops inside L that accesses memory.  Signed order:
// user-space addresses, the offsets added to them and trip counts are far
// below 2^63, so in the iterations that access memory the operands of
// unsigned operations (umax, udiv, zext in trip counts and indices) are
// >= 0 and behave as signed ones, and, as in the C program, address
// arithmetic does not wrap.  Every operation is monotone in each operand,
// so the bounds of the whole are the operations on the bounds of the
// parts.  An inner loop's trip count is meaningless in iterations of the
// outer loops that skip it; such iterations may widen the hull, never
// narrow it below the addresses the others access.
class HullFinder {
    ScalarEvolution &SE;
    const Loop *L;
    Type *I64;
    SmallPtrSet<const PHINode *, 8> visiting;

    // A phi scalar evolution does not model (the vectoriser's resume
    // values): the hull of all it may receive.
    bool ofPhi(const PHINode *pn, bool asInt, const SCEV *&lo, const SCEV *&hi, unsigned depth)
    {
        if (!L->contains(pn) || !visiting.insert(pn).second)
            return false;
        bool ok = true;
        lo = hi = nullptr;
        for (const Value *in : pn->incoming_values()) {
            const SCEV *v = SE.getSCEV(const_cast<Value *>(in)), *l, *h;
            if (asInt)
                v = SE.getPtrToIntExpr(v, I64);
            if (isa<SCEVCouldNotCompute>(v) || !of(v, l, h, depth + 1)) {
                ok = false;
                break;
            }
            lo = lo ? smin2(SE, lo, l) : l;
            hi = hi ? smax2(SE, hi, h) : h;
        }
        visiting.erase(pn);
        return ok && lo;
    }

  public:
    HullFinder(ScalarEvolution &se, const Loop *l, Type *i64) : SE(se), L(l), I64(i64) {}

    bool of(const SCEV *S, const SCEV *&lo, const SCEV *&hi, unsigned depth = 0)
    {
        if (depth > 16)
            return false;
        if (SE.isLoopInvariant(S, L)) {
            lo = hi = S;
            return true;
        }
        if (auto *ar = dyn_cast<SCEVAddRecExpr>(S)) {
            const Loop *AL = ar->getLoop();
            if (!L->contains(AL) || !ar->isAffine())
                return false;
            const SCEV *step = ar->getStepRecurrence(SE);
            const SCEV *btc = SE.getBackedgeTakenCount(AL);
            if (isa<SCEVCouldNotCompute>(btc) || !SE.isLoopInvariant(step, L))
                return false;
            Type *T = ar->getType();
            const SCEV *start = ar->getStart();
            const SCEV *last =
                SE.getAddExpr(start, SE.getMulExpr(step, SE.getTruncateOrZeroExtend(btc, T)));
            const SCEV *first = smin2(SE, start, last), *final = smax2(SE, start, last);
            if (auto *c = dyn_cast<SCEVConstant>(step)) {
                first = c->getAPInt().isNonNegative() ? start : last;
                final = c->getAPInt().isNonNegative() ? last : start;
            }
            const SCEV *l1, *h1, *l2, *h2;
            // both ends are invariant in AL; bound them over the loops between
            if (!of(first, l1, h1, depth + 1) || !of(final, l2, h2, depth + 1))
                return false;
            lo = l1, hi = h2;
            return true;
        }
        if (auto *add = dyn_cast<SCEVAddExpr>(S)) {
            SmallVector<const SCEV *, 4> los, his;
            for (const SCEV *op : add->operands()) {
                const SCEV *l, *h;
                if (!of(op, l, h, depth + 1))
                    return false;
                los.push_back(l), his.push_back(h);
            }
            lo = SE.getAddExpr(los), hi = SE.getAddExpr(his);
            return true;
        }
        if (auto *mul = dyn_cast<SCEVMulExpr>(S)) {
            // one varying factor times invariant ones of a known sign
            const SCEV *var = nullptr;
            SmallVector<const SCEV *, 4> inv;
            for (const SCEV *op : mul->operands()) {
                if (SE.isLoopInvariant(op, L))
                    inv.push_back(op);
                else if (var)
                    return false;
                else
                    var = op;
            }
            const SCEV *c = SE.getMulExpr(inv), *l, *h;
            if (!var || !of(var, l, h, depth + 1))
                return false;
            const SCEV *cl = SE.getMulExpr(c, l), *ch = SE.getMulExpr(c, h);
            if (SE.isKnownNonNegative(c))
                lo = cl, hi = ch;
            else if (SE.isKnownNonPositive(c))
                lo = ch, hi = cl;
            else // the sign is known at run time
                lo = smin2(SE, cl, ch), hi = smax2(SE, cl, ch);
            return true;
        }
        if (auto *mm = dyn_cast<SCEVMinMaxExpr>(S)) {
            // monotone in every operand (unsigned ones: see the class comment)
            SmallVector<const SCEV *, 4> los, his;
            for (const SCEV *op : mm->operands()) {
                const SCEV *l, *h;
                if (!of(op, l, h, depth + 1))
                    return false;
                los.push_back(l), his.push_back(h);
            }
            bool isMax = isa<SCEVUMaxExpr>(mm) || isa<SCEVSMaxExpr>(mm);
            lo = isMax ? SE.getSMaxExpr(los) : SE.getSMinExpr(los);
            hi = isMax ? SE.getSMaxExpr(his) : SE.getSMinExpr(his);
            return true;
        }
        if (auto *ud = dyn_cast<SCEVUDivExpr>(S)) {
            auto *c = dyn_cast<SCEVConstant>(ud->getRHS());
            const SCEV *l, *h;
            if (!c || c->getAPInt().isNonPositive() || !of(ud->getLHS(), l, h, depth + 1))
                return false;
            lo = SE.getUDivExpr(l, c), hi = SE.getUDivExpr(h, c);
            return true;
        }
        if (auto *u = dyn_cast<SCEVUnknown>(S))
            if (auto *pn = dyn_cast<PHINode>(u->getValue()))
                return ofPhi(pn, false, lo, hi, depth);
        if (auto *p2i = dyn_cast<SCEVPtrToIntExpr>(S))
            if (auto *u = dyn_cast<SCEVUnknown>(p2i->getOperand()))
                if (auto *pn = dyn_cast<PHINode>(u->getValue()))
                    return S->getType() == I64 && ofPhi(pn, true, lo, hi, depth);
        if (auto *cast_ = dyn_cast<SCEVCastExpr>(S)) {
            const SCEV *l, *h;
            Type *T = S->getType();
            if (isa<SCEVSignExtendExpr>(cast_)) {
                if (!of(cast_->getOperand(), l, h, depth + 1))
                    return false;
                lo = SE.getSignExtendExpr(l, T), hi = SE.getSignExtendExpr(h, T);
                return true;
            }
            if (isa<SCEVZeroExtendExpr>(cast_)) {
                if (!of(cast_->getOperand(), l, h, depth + 1))
                    return false;
                lo = SE.getZeroExtendExpr(l, T), hi = SE.getZeroExtendExpr(h, T);
                return true;
            }
        }
        return false;
    }
};

struct Span {
    const SCEV *base; // the pointer base (getPointerBase), or null when merged
    const SCEV *lo, *hi; // bytes [lo, hi)
    int need;
    unsigned members;
    // while it is being built: the address of its first access and the
    // bytes of all, as offsets from that address (constants)
    const SCEV *rep;
    int64_t omin, omax;
};

struct Plan {
    SmallVector<Span, 2 * kRanges> spans;
    unsigned covered = 0, ownAccesses = 0;
    bool hasSubloops = false;
    const SCEV *tripCount = nullptr; // i64
    // iterations of the innermost body per entry, for the density rule:
    // the trip count times those of the subloops whose counts do not
    // change inside the loop (nestIterations), i64
    const SCEV *bodyCount = nullptr;
    SmallVector<const SCEV *, 2> divisors; // tested != 0 before the bounds
    // accesses without bounds: checked one by one in the fast copy too
    SmallVector<Instruction *, 4> unbounded;
};

class Versioner {
    Ctx &X;
    FunctionGlobals &G;
    Function &F;
    DominatorTree &DT;
    LoopInfo &LI;
    ScalarEvolution &SE;

  public:
    Versioner(Ctx &x, FunctionGlobals &g, Function &f, DominatorTree &dt, LoopInfo &li,
              ScalarEvolution &se)
        : X(x), G(g), F(f), DT(dt), LI(li), SE(se)
    {
    }

    // Whether the program itself divides by a value of this expression
    // before `at`: then expanding a division by it there cannot trap.
    bool dividedBefore(const SCEV *d, const Instruction *at)
    {
        for (BasicBlock &BB : F)
            for (Instruction &I : BB)
                if (auto *bo = dyn_cast<BinaryOperator>(&I))
                    if ((bo->getOpcode() == Instruction::UDiv || bo->getOpcode() == Instruction::URem) &&
                        SE.isSCEVable(bo->getType()) &&
                        SE.getSCEV(bo->getOperand(1)) == d && DT.dominates(bo, at))
                        return true;
        return false;
    }

    // isSafeToExpandAt, which also accepts divisions by values the program
    // already divided by (the bounds of tiled loops: t / ntiles * T) and by
    // others, which the range check then tests for 0 first (a loop whose
    // step is a variable: s += len).
    bool canExpandAt(const SCEV *S, Instruction *at, Plan &p)
    {
        if (isSafeToExpandAt(S, at, SE))
            return true;
        struct Visitor {
            Versioner &V;
            Instruction *at;
            Plan &p;
            bool bad = false;
            bool follow(const SCEV *S)
            {
                if (auto *d = dyn_cast<SCEVUDivExpr>(S)) {
                    const SCEV *rhs = d->getRHS();
                    if (!isa<SCEVConstant>(rhs) && !V.dividedBefore(rhs, at)) {
                        // divisor tested != 0 before any division (version())
                        if (!isSafeToExpandAt(rhs, at, V.SE))
                            bad = true;
                        else if (!is_contained(p.divisors, rhs))
                            p.divisors.push_back(rhs);
                    }
                }
                if (auto *u = dyn_cast<SCEVUnknown>(S))
                    if (auto *I = dyn_cast<Instruction>(u->getValue()))
                        if (!V.DT.dominates(I, at))
                            bad = true;
                if (auto *ar = dyn_cast<SCEVAddRecExpr>(S))
                    if (!ar->getLoop()->contains(at->getParent()))
                        bad = true;
                return !bad;
            }
            bool isDone() const { return bad; }
        } v{ *this, at, p };
        SCEVTraversal<Visitor> walk(v);
        walk.visitAll(S);
        return !v.bad;
    }

    // DSMCHECK_DEBUG=1: why a loop keeps its per-access checks
    bool no(Loop *L, const char *why, Instruction *I = nullptr)
    {
        if (X.Debug) {
            errs() << "dsmcheck: " << F.getName() << ": loop " << L->getHeader()->getName()
                   << " (depth " << L->getLoopDepth() << "): " << why;
            if (I)
                errs() << ": " << *I;
            errs() << "\n";
        }
        return false;
    }

    bool plan(Loop *L, Plan &p)
    {
        if (!L->getLoopPreheader() || !L->getExitingBlock() || !L->getExitBlock())
            return no(L, "not one preheader, one exiting block and one exit");
        if (L->getExitBlock()->isEHPad() || L->getHeader()->hasAddressTaken())
            return no(L, "unusual exit");
        for (Loop *sub : L->getLoopsInPreorder())
            if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(sub)))
                return no(L, "a trip count is not known on entry", &*sub->getHeader()->begin());
        p.hasSubloops = !L->getSubLoops().empty();
        const SCEV *btc = SE.getBackedgeTakenCount(L);
        p.tripCount = SE.getAddExpr(SE.getTruncateOrZeroExtend(btc, X.I64), SE.getOne(X.I64));
        Instruction *at = L->getLoopPreheader()->getTerminator();
        if (!canExpandAt(p.tripCount, at, p)) {
            if (X.Debug)
                errs() << "dsmcheck:   trip count " << *p.tripCount << "\n";
            return no(L, "trip count not expandable");
        }
        p.bodyCount = p.tripCount;
        for (Loop *sub = L; sub->getSubLoops().size() == 1;) {
            // a perfect-enough nest (one subloop per level) whose counts are
            // fixed on entry: a tiled kernel's rows, far apart, are then
            // dense for the work of the whole nest (lu's interior update at
            // 64-byte blocks: 16 rows of 3 blocks in a 48 KB hull, for 4096
            // iterations, checked once instead of at each of 256 entries)
            sub = sub->getSubLoops()[0];
            const SCEV *c = SE.getAddExpr(
                SE.getTruncateOrZeroExtend(SE.getBackedgeTakenCount(sub), X.I64), SE.getOne(X.I64));
            if (!SE.isLoopInvariant(c, L) || !canExpandAt(c, at, p))
                break;
            p.bodyCount = SE.getMulExpr(p.bodyCount, c);
        }
        HullFinder hull(SE, L, X.I64);
        for (BasicBlock *BB : L->blocks())
            for (Instruction &I : *BB) {
                if (isa<CallBase>(I)) {
                    if (!isBenignIntrinsic(I))
                        return no(L, "a call");
                    continue;
                }
                if (isa<FenceInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
                    return no(L, "synchronisation");
                if (auto *l = dyn_cast<LoadInst>(&I))
                    if (l->isVolatile() || l->isAtomic())
                        return no(L, "a volatile or atomic load");
                if (auto *s = dyn_cast<StoreInst>(&I))
                    if (s->isVolatile() || s->isAtomic())
                        return no(L, "a volatile or atomic store");
                Access a;
                if (isOurs(I) || !accessOf(X.DL, I, a) || X.isPrivate(a.ptr))
                    continue;
                const SCEV *ptr = SE.getSCEV(a.ptr);
                const SCEV *addr = SE.getPtrToIntExpr(ptr, X.I64);
                if (isa<SCEVCouldNotCompute>(addr)) {
                    p.unbounded.push_back(&I);
                    continue;
                }
                if (!addToSpan(p, addr, a)) {
                    const SCEV *lo, *hi;
                    if (!hull.of(addr, lo, hi)) {
                        if (X.Debug)
                            errs() << "dsmcheck:   address without bounds " << *addr << "\n";
                        p.unbounded.push_back(&I);
                        continue;
                    }
                    p.spans.push_back({ SE.getPointerBase(ptr), lo, hi, a.need, 1, addr, 0, a.size });
                }
                p.covered++;
                if (LI.getLoopFor(BB) == L)
                    p.ownAccesses++;
            }
        if (!p.covered)
            return no(L, p.unbounded.empty() ? "no shared access" : "no access with bounds");
        finishSpans(p);
        fitWindows(p);
        for (Span &s : p.spans)
            if (!canExpandAt(s.lo, at, p) || !canExpandAt(s.hi, at, p))
                return no(L, "bounds not expandable");
        if (X.Debug)
            errs() << "dsmcheck: " << F.getName() << ": loop " << L->getHeader()->getName()
                   << " (depth " << L->getLoopDepth() << "): versioned, " << p.spans.size()
                   << " span(s), " << p.covered << " access(es)";
        if (X.Debug && !p.unbounded.empty())
            errs() << ", " << p.unbounded.size() << " checked in the fast copy";
        if (X.Debug)
            errs() << "\n";

        return true;
    }

    static void join(ScalarEvolution &SE, Span &into, const Span &s)
    {
        into.lo = smin2(SE, into.lo, s.lo), into.hi = smax2(SE, into.hi, s.hi);
        into.need = std::max(into.need, s.need);
        into.members += s.members;
        if (into.base != s.base)
            into.base = nullptr;
    }

    // Accesses a constant distance apart (fields, neighbours, the pieces
    // of a struct copy) share a span; others get their own (two rows of one
    // matrix far apart would make a sparse span), until the range windows
    // run out: then spans off the same pointer are joined first.
    bool addToSpan(Plan &p, const SCEV *addr, const Access &a)
    {
        for (Span &s : p.spans) {
            auto *d = dyn_cast<SCEVConstant>(SE.getMinusSCEV(addr, s.rep));
            if (!d || d->getAPInt().abs().ugt(4096))
                continue;
            int64_t off = d->getAPInt().getSExtValue();
            s.omin = std::min(s.omin, off), s.omax = std::max(s.omax, off + a.size);
            s.need = std::max(s.need, a.need);
            s.members++;
            return true;
        }
        return false;
    }

    // The spans' bounds from their first access's hull and the offsets.
    void finishSpans(Plan &p)
    {
        for (Span &s : p.spans) {
            s.lo = SE.getAddExpr(s.lo, SE.getConstant(X.I64, s.omin, true));
            s.hi = SE.getAddExpr(s.hi, SE.getConstant(X.I64, s.omax, true));
        }
    }

    void fitWindows(Plan &p)
    {
        while (p.spans.size() > kRanges) {
            size_t a = p.spans.size() - 2, b = p.spans.size() - 1;
            for (size_t i = 0; i < p.spans.size(); i++)
                for (size_t j = i + 1; j < p.spans.size(); j++)
                    if (p.spans[i].base && p.spans[i].base == p.spans[j].base) {
                        a = i, b = j;
                        goto found;
                    }
        found:
            join(SE, p.spans[a], p.spans[b]);
            p.spans.erase(p.spans.begin() + b);
        }
    }

    // DSMCHECK_COUNT=1: count the entries of each copy; printed at exit
    // (dsmcheck.cpp, the module's destructor)
    void countEntries(Loop *L, BasicBlock *fastPH, BasicBlock *checkedPH)
    {
        ArrayType *T = ArrayType::get(X.I64, 2);
        auto *gv = new GlobalVariable(X.M, T, false, GlobalValue::InternalLinkage,
                                      ConstantAggregateZero::get(T), "dsm.count");
        auto bump = [&](BasicBlock *bb, unsigned i) {
            IRBuilder<> B(&*bb->getFirstInsertionPt());
            Value *p = B.CreateConstInBoundsGEP2_32(T, gv, 0, i);
            markOurs(B.CreateStore(B.CreateAdd(markLoad(B.CreateLoad(X.I64, p)),
                                               ConstantInt::get(X.I64, 1)), p));
        };
        bump(fastPH, 0);
        bump(checkedPH, 1);
        std::string name = (F.getName() + ": loop at depth " + Twine(L->getLoopDepth()) +
                            (L->getHeader()->hasName() ? " " + L->getHeader()->getName() : ""))
                               .str();
        X.counters.push_back({ gv, name });
    }

    static Value *markLoad(LoadInst *l)
    {
        markOurs(l);
        return l;
    }

    // Entries below this many iterations run the checked loop: the range
    // check (about 15 instructions per span) would cost more than the
    // per-access checks it saves (about 9 per access and iteration).
    static unsigned minTrip(const Plan &p)
    {
        if (p.hasSubloops)
            return 1;
        unsigned cost = 15 * (unsigned)p.spans.size() + 6, save = 9 * std::max(1u, p.ownAccesses);
        return std::min(8u, (cost + save - 1) / save);
    }

    void version(Loop *L, Plan &p, SmallPtrSetImpl<BasicBlock *> &fastBlocks)
    {
        BasicBlock *exiting = L->getExitingBlock();
        BasicBlock *exitBB = L->getExitBlock();
        if (!exitBB->getSinglePredecessor())
            exitBB = SplitEdge(exiting, exitBB, &DT, &LI);
        formLCSSA(*L, DT, &LI, &SE);
        BasicBlock *checkBB = L->getLoopPreheader();
        BasicBlock *checkedPH =
            SplitBlock(checkBB, checkBB->getTerminator(), &DT, &LI, nullptr, "dsm.checked.ph");

        ValueToValueMapTy VMap;
        SmallVector<BasicBlock *, 16> blocks;
        Loop *fast = cloneLoopWithPreheader(checkedPH, checkBB, L, VMap, ".dsmfast", &LI, &DT, blocks);
        remapInstructionsInBlocks(blocks, VMap);
        BasicBlock *fastPH = fast->getLoopPreheader();
        BasicBlock *fastExiting = cast<BasicBlock>(VMap[exiting]);
        for (PHINode &pn : exitBB->phis()) {
            Value *v = pn.getIncomingValueForBlock(exiting);
            auto it = VMap.find(v);
            pn.addIncoming(it != VMap.end() ? (Value *)it->second : v, fastExiting);
        }
        for (BasicBlock *b : blocks)
            fastBlocks.insert(b);
        // the accesses no span bounds keep a check in the fast copy, whose
        // slow path reopens the range windows (__dsm_blk_miss_ranges)
        unsigned needs = 0;
        for (unsigned r = 0; r < p.spans.size(); r++)
            needs |= (unsigned)p.spans[r].need << (2 * r);
        for (Instruction *I : p.unbounded)
            X.inRanges[cast<Instruction>(VMap[I])] = needs;
        X.st.unbounded += p.unbounded.size();

        // the range check, in place of checkBB's branch to the checked loop
        checkBB->getTerminator()->eraseFromParent();
        MDBuilder MDB(X.C);
        MDNode *likely = MDB.createBranchWeights(1000, 1);
        SCEVExpander exp(SE, X.DL, "dsm.range");
        auto nextBlock = [&](const char *name) {
            BasicBlock *nb = BasicBlock::Create(X.C, name, &F, checkedPH);
            fastBlocks.insert(nb);
            return nb;
        };
        IRBuilder<> B(checkBB);
        if (!p.divisors.empty()) {
            // the bounds divide by these: none may be 0 where they are computed
            Instruction *here = B.CreateUnreachable();
            Value *nonzero = ConstantInt::getTrue(X.C);
            for (const SCEV *d : p.divisors) {
                Value *v = exp.expandCodeFor(d, d->getType(), here);
                IRBuilder<> DB(here);
                nonzero = DB.CreateAnd(nonzero, DB.CreateICmpNE(v, ConstantInt::get(d->getType(), 0)));
            }
            B.SetInsertPoint(here);
            BasicBlock *go = nextBlock("dsm.range.div");
            B.CreateCondBr(nonzero, go, checkedPH, likely);
            here->eraseFromParent();
            DT.addNewBlock(go, checkBB); // the expander asks the tree
            B.SetInsertPoint(go);
        }
        // every expansion here, in a block the dominator tree knows
        Instruction *here = B.CreateUnreachable();
        Value *tc = exp.expandCodeFor(p.tripCount, X.I64, here);
        Value *body = p.bodyCount == p.tripCount ? tc : exp.expandCodeFor(p.bodyCount, X.I64, here);
        SmallVector<Value *, kRanges> los, his;
        for (Span &sp : p.spans) {
            los.push_back(exp.expandCodeFor(sp.lo, X.I64, here));
            his.push_back(exp.expandCodeFor(sp.hi, X.I64, here));
        }
        B.SetInsertPoint(here);
        RegionGlobals g = G.get(B);
        Value *end = B.CreateAdd(g.base, g.size, "dsm.end");
        // blocks allowed per span: 4 per iteration of the body, and 8 more
        Value *maxBlocks = B.CreateAdd(B.CreateShl(body, 2), ConstantInt::get(X.I64, 8));
        BasicBlock *cur = here->getParent();
        here->eraseFromParent();
        B.SetInsertPoint(cur);

        BasicBlock *fail = BasicBlock::Create(X.C, "dsm.range.fail", &F, checkedPH);
        {
            IRBuilder<> FB(fail);
            for (unsigned r = 0; r < p.spans.size(); r++)
                markOurs(FB.CreateStore(ConstantInt::get(X.I64, 0), X.windowSlot(FB, 1 + 2 * r), true));
            FB.CreateBr(checkedPH);
        }
        fastBlocks.insert(fail);
        unsigned mt = minTrip(p);
        if (mt > 1) {
            BasicBlock *go = nextBlock("dsm.range");
            B.CreateCondBr(B.CreateICmpUGE(tc, ConstantInt::get(X.I64, mt)), go, checkedPH, likely);
            B.SetInsertPoint(go);
        }
        for (unsigned r = 0; r < p.spans.size(); r++) {
            Span &s = p.spans[r];
            Value *lo = los[r], *hi = his[r];
            BasicBlock *testIn = nextBlock("dsm.range.in");
            BasicBlock *next = nextBlock("dsm.range.next");
            // a span that does not look like one runs checked
            Value *valid = B.CreateICmpSGT(hi, lo);
            Value *outside = B.CreateOr(B.CreateICmpULE(hi, g.base), B.CreateICmpUGE(lo, end));
            BasicBlock *notOut = nextBlock("dsm.range.notout");
            B.CreateCondBr(valid, notOut, fail, likely); // fail: earlier spans may be open
            B.SetInsertPoint(notOut);
            B.CreateCondBr(outside, next, testIn);
            B.SetInsertPoint(testIn);
            Value *off = B.CreateSub(lo, g.base);
            Value *len = B.CreateSub(hi, lo);
            Value *inside = B.CreateAnd(B.CreateICmpULT(off, g.size),
                                        B.CreateICmpULE(len, B.CreateSub(g.size, off)));
            Value *b0 = B.CreateLShr(off, g.shift);
            Value *b1 = B.CreateLShr(B.CreateAdd(off, B.CreateSub(len, ConstantInt::get(X.I64, 1))),
                                     g.shift);
            Value *dense = B.CreateICmpULE(B.CreateSub(b1, b0), maxBlocks);
            BasicBlock *open = nextBlock("dsm.range.open");
            B.CreateCondBr(B.CreateAnd(inside, dense), open, fail, likely);
            // open the window, then read the state bytes (the order the runtime relies on)
            B.SetInsertPoint(open);
            markOurs(B.CreateStore(hi, X.windowSlot(B, 2 + 2 * r), true));
            markOurs(B.CreateStore(lo, X.windowSlot(B, 1 + 2 * r), true));
            BasicBlock *scan = nextBlock("dsm.range.scan");
            BasicBlock *step = nextBlock("dsm.range.step");
            B.CreateBr(scan);
            B.SetInsertPoint(scan);
            PHINode *b = B.CreatePHI(X.I64, 2, "dsm.blk");
            b->addIncoming(b0, open);
            LoadInst *st = B.CreateLoad(X.I8, B.CreateInBoundsGEP(X.I8, g.table, b), true, "dsm.st");
            markOurs(st);
            B.CreateCondBr(B.CreateICmpUGE(st, ConstantInt::get(X.I8, s.need)), step, fail, likely);
            B.SetInsertPoint(step);
            Value *bn = B.CreateAdd(b, ConstantInt::get(X.I64, 1));
            b->addIncoming(bn, step);
            B.CreateCondBr(B.CreateICmpULE(bn, b1), scan, next);
            B.SetInsertPoint(next);
        }
        // the loop's accesses stay after the check
        B.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        B.CreateBr(fastPH);

        // close the range windows where the fast loop exits
        BasicBlock *closeBB = SplitEdge(fastExiting, exitBB);
        closeBB->setName("dsm.range.close");
        IRBuilder<> CB(&*closeBB->getFirstInsertionPt());
        CB.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
        for (unsigned r = 0; r < p.spans.size(); r++)
            markOurs(CB.CreateStore(ConstantInt::get(X.I64, 0), X.windowSlot(CB, 1 + 2 * r), true));
        fastBlocks.insert(closeBB);
        if (X.Count)
            countEntries(L, fastPH, checkedPH);
        X.st.loops++;
        X.st.ranged += p.covered;
    }
};

} // namespace

void versionLoops(Ctx &X, FunctionGlobals &G, Function &F, FunctionAnalysisManager &FAM,
                  SmallPtrSetImpl<BasicBlock *> &fastBlocks)
{
    TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
    {
        // the end of the pipeline leaves loops without preheaders (the
        // vectoriser's memchecks) or dedicated exits: give them back
        DominatorTree DT(F);
        LoopInfo LI(DT);
        if (LI.empty())
            return;
        AssumptionCache AC(F);
        ScalarEvolution SE(F, TLI, AC, DT, LI);
        for (Loop *L : LI.getLoopsInPreorder())
            simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, false);
    }
    SmallPtrSet<BasicBlock *, 16> tried; // loop headers already decided
    for (unsigned round = 0; round < 64; round++) {
        DominatorTree DT(F);
        LoopInfo LI(DT);
        AssumptionCache AC(F);
        ScalarEvolution SE(F, TLI, AC, DT, LI);
        Versioner v(X, G, F, DT, LI, SE);
        bool changed = false;
        for (Loop *L : LI.getLoopsInPreorder()) {
            BasicBlock *h = L->getHeader();
            if (fastBlocks.count(h) || !tried.insert(h).second)
                continue;
            Plan p;
            if (v.plan(L, p)) {
                v.version(L, p, fastBlocks);
                changed = true;
                break;
            }
        }
        if (!changed)
            return;
    }
}

} // namespace dsmcheck
