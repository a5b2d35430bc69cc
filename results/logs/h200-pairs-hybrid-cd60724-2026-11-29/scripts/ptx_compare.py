import re,sys
def entries(f):
    s=open(f).read()
    parts=re.split(r'\n(?=(?:\.visible |\.weak )?\.entry )',s)
    d={}
    for p in parts[1:]:
        m=re.match(r'(?:\.visible |\.weak )?\.entry (\S+)\(',p)
        name=m.group(1)
        body=p.replace(name,'NAME')
        body=re.sub(r'\.loc\s.*','',body)
        body=re.sub(r'//.*','',body)
        body=re.sub(r"\$L__BB\d+_","$L__BB_",body)
        body=re.sub(r"__local_depot\d+","__local_depot",body)
        body=re.sub(r"_ZZN\S+?E(\d+)(st_static|mixed)",r"SHARED_\2",body)
        d[name]=body
    return d
a=entries(sys.argv[1]); b=entries(sys.argv[2])
only_a=set(a)-set(b); only_b=set(b)-set(a)
same=[k for k in a if k in b and a[k]==b[k]]
diff=[k for k in a if k in b and a[k]!=b[k]]
print('same',len(same),'diff',len(diff),'only_before',len(only_a),'only_after',len(only_b))
for k in diff: print('DIFF',k[:150])
import subprocess
def dm(x): return subprocess.run(['c++filt',x],capture_output=True,text=True).stdout.strip()
for k in only_a: print('BEFORE',dm(k)[:250])
for k in only_b: print('AFTER',dm(k)[:250])
# match only_a with only_b by body
bb={v:k for k,v in b.items() if k in only_b}
for k in only_a:
    print('body-match' if a[k] in bb else 'NO-body-match', dm(k)[:120])

# the renamed kernels: each before-only kernel against every after-only one, shared names normalized
for k in only_a:
    hits=[dm(j)[:100] for j in only_b if b[j]==a[k]]
    print('RENAMED-SAME' if hits else 'RENAMED-DIFFERENT', dm(k)[:120], '->', hits)
