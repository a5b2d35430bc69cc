#!/usr/bin/env python3
"""Host emulation of sort/merge_parts.cuh's index arithmetic (no GPU needed).

Cuts random inputs as merge_parts::plan does, sorts each part stably, then runs every merge round
as merge_coarse_kernel, merge_split_kernel and merge_kernel do: a block's split from a global
binary search confined between its group's coarse splits (groups of 1 to 3 blocks), its share
of both runs staged, each thread's own search in the staged share and its sequential merge with
each run's next key held aside. Small tiles (1 to 4 threads of 1 to 3 items) and small part
bounds put block, run and pair boundaries everywhere; keys in [0, 6) make ties common, and the
values (input indices) must come out in a stable order. Prints "ok" or stops at the first
mismatch. With --mutant, the thread's merge takes ties from the right run (unstable), which must
fail; with --mutant-split, the fine search takes its group's coarse bounds even from another
pair of runs, which must fail too. Used before the road first ran on a GPU (2026-11-30), and again
for the two-level splits and the clipped reads (the same day).
"""
import random
import sys
MUTANT = '--mutant' in sys.argv
# --mutant-split: the fine search ignores the pair test (takes the coarse bounds always)
MUTANT_SPLIT = '--mutant-split' in sys.argv
def cdiv(a,b): return (a+b-1)//b
def split(a, na, b, nb, diag):
    lo = diag-nb if diag>nb else 0; hi = min(diag, na)
    while lo<hi:
        mid = lo+(hi-lo)//2
        if a(mid) <= b(diag-1-mid): lo=mid+1
        else: hi=mid
    return lo
def pair_of(out,n,w):
    lo = out//(2*w)*(2*w); na=min(w,n-lo); nb=min(w,n-lo-na); return lo,na,nb
def run(n, largest, T, I, G):
    tile=T*I
    most=largest//tile*tile
    keys_=cdiv(cdiv(n, cdiv(n,most)),tile)*tile
    count=cdiv(n,keys_)
    keys=[random.randrange(0,6) for _ in range(n)]; vals=list(range(n))
    # sort parts (stable)
    src=[]; vsrc=[]
    for at in range(0,n,keys_):
        part=sorted(zip(keys[at:at+keys_], vals[at:at+keys_]), key=lambda p:p[0])
        src+= [p[0] for p in part]; vsrc+=[p[1] for p in part]
    assert keys_<=largest
    blocks=cdiv(n,tile); w=keys_
    while w<n:
        # merge_coarse_kernel: a split every G blocks (and one at n); merge_split_kernel: each
        # block's search confined between its group's two where they lie in its pair
        groups=cdiv(blocks,G); coarse=[]
        for c in range(groups+1):
            out=min(c*G*tile,n); lo,na,nb=pair_of(out,n,w)
            coarse.append(split(lambda i:src[lo+i],na,lambda i:src[lo+na+i],nb,out-lo))
        sp=[]
        for b in range(blocks):
            out=b*tile; lo,na,nb=pair_of(out,n,w); diag=out-lo
            l=diag-nb if diag>nb else 0; h=min(diag,na)
            c=b//G; d0=c*G*tile; d1=min((c+1)*G*tile,n)
            if MUTANT_SPLIT or pair_of(d0,n,w)[0]==lo: l=max(l,coarse[c])
            if MUTANT_SPLIT or (d1<n and pair_of(d1,n,w)[0]==lo): h=min(h,coarse[c+1])
            while l<h:
                mid=l+(h-l)//2
                if src[lo+mid]<=src[lo+na+diag-1-mid]: l=mid+1
                else: h=mid
            if not MUTANT_SPLIT: assert l==split(lambda i:src[lo+i],na,lambda i:src[lo+na+i],nb,diag)
            sp.append(l)
        dst=[None]*n; vdst=[None]*n
        for b in range(blocks):
            first=b*tile; lo,na,nb=pair_of(first,n,w); end=min(first+tile, lo+na+nb)
            a0=sp[b]; a1= sp[b+1] if end<lo+na+nb else na
            b0=first-lo-a0; la=a1-a0; total=end-first
            sk=[]; sv=[]
            for i in range(total):
                fr = lo+a0+i if i<la else lo+na+b0+(i-la)
                sk.append(src[fr]); sv.append(vsrc[fr])
            outk=[None]*total; outv=[None]*total
            for t in range(T):
                d=min(t*I,total)
                i=split(lambda x:sk[x],la,lambda x:sk[la+x],total-la,d); j=la+(d-i)
                ak=sk[min(i,total-1)]; bk=sk[min(j,total-1)]
                for q in range(I):
                    if d+q<total:
                        from_a = j>=total or (i<la and (ak<bk if MUTANT else ak<=bk))
                        outk[d+q]=ak if from_a else bk; outv[d+q]=sv[i if from_a else j]
                        if from_a: i+=1; ak=sk[min(i,total-1)]
                        else: j+=1; bk=sk[min(j,total-1)]
            dst[first:first+total]=outk; vdst[first:first+total]=outv
        src,vsrc=dst,vdst; w*=2
    want=sorted(zip(keys,vals),key=lambda p:p[0])
    assert list(zip(src,vsrc))==want, (n,largest)
random.seed(1)
for _ in range(300):
    T=random.choice([1,2,4]); I=random.choice([1,2,3]); G=random.choice([1,2,3])
    tile=T*I
    largest=random.randint(tile, 40)
    n=random.randint(largest+1, 300)
    run(n,largest,T,I,G)
print("ok")
