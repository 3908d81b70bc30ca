#include "bench_scene.h"
#include "bench_sah.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
static uint32_t spread(uint32_t v){ v&=1023; v=(v|(v<<16))&0x030000FF; v=(v|(v<<8))&0x0300F00F; v=(v|(v<<4))&0x030C30C3; v=(v|(v<<2))&0x09249249; return v;}
typedef struct { uint32_t code, idx; } ci;
static int cmp(const void*a,const void*b){const ci*x=a,*y=b; return x->code<y->code?-1:x->code>y->code?1:(x->idx<y->idx?-1:1);}
static glradix_lbvh_node *N; static uint32_t next_node;
static float area_of(const float*lo,const float*hi){ float e[3]; for(int c=0;c<3;c++) e[c]=hi[c]-lo[c]; return (e[0]*e[1]+e[1]*e[2])+e[2]*e[0]; }
static float uarea(uint32_t a, uint32_t b){ float lo[3],hi[3]; for(int c=0;c<3;c++){lo[c]=N[a].min[c]<N[b].min[c]?N[a].min[c]:N[b].min[c]; hi[c]=N[a].max[c]>N[b].max[c]?N[a].max[c]:N[b].max[c];} return area_of(lo,hi);}
static uint32_t mk(uint32_t a, uint32_t b){ uint32_t p=next_node--; N[p].a=a; N[p].b=b; for(int c=0;c<3;c++){N[p].min[c]=N[a].min[c]<N[b].min[c]?N[a].min[c]:N[b].min[c]; N[p].max[c]=N[a].max[c]>N[b].max[c]?N[a].max[c]:N[b].max[c];} return p;}
/* PLOC on list c[0..cnt) down to target; lazy: merge only closest (cnt-target) mutual pairs; R radius */
static int R=8, LAZY=1;
static size_t ploc(uint32_t *c, size_t cnt, size_t target){
  size_t *nn=malloc(cnt*sizeof*nn); float *d=malloc(cnt*sizeof*d); char*rm=malloc(cnt);
  while(cnt>target){
    for(size_t i=0;i<cnt;i++){ float best=1e30f; size_t bj=i; size_t lo=i>(size_t)R?i-R:0, hi=i+R<cnt-1?i+R:cnt-1; for(size_t j=lo;j<=hi;j++){ if(j==i)continue; float a=uarea(c[i],c[j]); if(a<best||(a==best&&0)){best=a;bj=j;} } nn[i]=bj; d[i]=best; }
    memset(rm,0,cnt); size_t need=cnt-target;
    /* mutual pairs sorted by distance */
    size_t nm=0; size_t *mi=malloc(cnt*sizeof*mi);
    for(size_t i=0;i<cnt;i++) if(nn[i]>i && nn[nn[i]]==i) mi[nm++]=i;
    if(LAZY){ for(size_t x=0;x<nm;x++) for(size_t y=x+1;y<nm;y++) if(d[mi[y]]<d[mi[x]]){size_t t=mi[x];mi[x]=mi[y];mi[y]=t;} }
    size_t m = nm<need?nm:need; if(!LAZY) m = nm < need ? nm : need;
    for(size_t x=0;x<m;x++){ size_t i=mi[x]; c[i]=mk(c[i],c[nn[i]]); rm[nn[i]]=1; }
    size_t k=0; for(size_t i=0;i<cnt;i++) if(!rm[i]) c[k++]=c[i]; cnt=k; free(mi);
  }
  free(nn); free(d); free(rm); return cnt;
}
static uint32_t *codes; static uint32_t n; static uint32_t *cl; static int T=16;
static int prefix(uint32_t i, uint32_t j){ if(codes[i]==codes[j]) return 32+__builtin_clz(i^j); return __builtin_clz(codes[i]^codes[j]); }
static uint32_t split_of(uint32_t f, uint32_t l){ int common=prefix(f,l); uint32_t s=f, step=l-f; do{ step=(step+1)/2; uint32_t nx=s+step; if(nx<l && prefix(f,nx)>common) s=nx; } while(step>1); return s; }
/* returns count of clusters at cl[f..] */
static size_t hploc(uint32_t f, uint32_t l){
  size_t size=l-f+1; int root = f==0 && l==n-1;
  if(size<=(size_t)T && !root){ for(uint32_t k=f;k<=l;k++) cl[k]=n-1+k; return size; }
  uint32_t s=split_of(f,l); size_t a=hploc(f,s), b=hploc(s+1,l);
  uint32_t tmp[512]; memcpy(tmp,cl+f,a*4); memcpy(tmp+a,cl+s+1,b*4);
  size_t cnt=ploc(tmp,a+b, root?1:(size_t)T); memcpy(cl+f,tmp,cnt*4); return cnt;
}
int main(int argc,char**argv){
  n = atoi(argv[1]); int scene = atoi(argv[2]); T = atoi(argv[3]); R=atoi(argv[4]); LAZY=atoi(argv[5]);
  float *b=malloc((size_t)n*32); bench_scene_make((bench_scene)scene,b,n);
  float lo[3]={1e30f,1e30f,1e30f},hi[3]={-1e30f,-1e30f,-1e30f};
  for(uint32_t i=0;i<n;i++) for(int c=0;c<3;c++){ if(b[8*i+c]<lo[c])lo[c]=b[8*i+c]; if(b[8*i+4+c]>hi[c])hi[c]=b[8*i+4+c]; }
  float side=0; for(int c=0;c<3;c++) if(hi[c]-lo[c]>side) side=hi[c]-lo[c];
  ci *v=malloc(n*sizeof*v);
  for(uint32_t i=0;i<n;i++){ uint32_t q[3]; for(int c=0;c<3;c++){ float m=(b[8*i+c]+b[8*i+4+c])*0.5f; float t=(m-lo[c])/side*1024.f; if(t<0)t=0; if(t>1023)t=1023; q[c]=(uint32_t)t;} v[i].code=spread(q[0])|spread(q[1])<<1|spread(q[2])<<2; v[i].idx=i; }
  qsort(v,n,sizeof*v,cmp);
  codes=malloc(n*4); for(uint32_t i=0;i<n;i++) codes[i]=v[i].code;
  N=calloc(2*n,sizeof*N); next_node=n-2;
  for(uint32_t k=0;k<n;k++){ uint32_t p=v[k].idx; N[n-1+k].a=p; N[n-1+k].b=0xFFFFFFFFu; memcpy(N[n-1+k].min,b+8*p,12); memcpy(N[n-1+k].max,b+8*p+4,12);}
  cl=malloc(n*4);
  if (T>0) hploc(0,n-1); else { for(uint32_t k=0;k<n;k++) cl[k]=n-1+k; ploc(cl,n,1); }
  glradix_lbvh_node *bn=calloc(2*n,sizeof*bn); bench_sah_build(b,n,bn);
  printf("n %u scene %d T %d R %d lazy %d: sah %.3f binned %.3f ratio %.3f root %u\n", n, scene, T, R, LAZY, bench_sah_cost(N,n), bench_sah_cost(bn,n), bench_sah_cost(N,n)/bench_sah_cost(bn,n), next_node+1);
}
