/*! Thermostat Cloud schedule card. Built by frontend/build.mjs from sources sha256:1d15489a140308fec60fc9bc87fce2894f1c3f97f8cc63ab0eae27d54ffdb7f5 (MIT; includes Lit, BSD-3-Clause, and Material Design Icons, Apache-2.0) */
var q=globalThis,K=q.ShadowRoot&&(q.ShadyCSS===void 0||q.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,r1=Symbol(),y1=new WeakMap,T=class{constructor(C,H,V){if(this._$cssResult$=!0,V!==r1)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=C,this.t=H}get styleSheet(){let C=this.o,H=this.t;if(K&&C===void 0){let V=H!==void 0&&H.length===1;V&&(C=y1.get(H)),C===void 0&&((this.o=C=new CSSStyleSheet).replaceSync(this.cssText),V&&y1.set(H,C))}return C}toString(){return this.cssText}},k1=M=>new T(typeof M=="string"?M:M+"",void 0,r1),P=(M,...C)=>{let H=M.length===1?M[0]:C.reduce((V,L,r)=>V+(e=>{if(e._$cssResult$===!0)return e.cssText;if(typeof e=="number")return e;throw Error("Value passed to 'css' function must be a 'css' function result: "+e+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(L)+M[r+1],M[0]);return new T(H,M,r1)},b1=(M,C)=>{if(K)M.adoptedStyleSheets=C.map(H=>H instanceof CSSStyleSheet?H:H.styleSheet);else for(let H of C){let V=document.createElement("style"),L=q.litNonce;L!==void 0&&V.setAttribute("nonce",L),V.textContent=H.cssText,M.appendChild(V)}},e1=K?M=>M:M=>M instanceof CSSStyleSheet?(C=>{let H="";for(let V of C.cssRules)H+=V.cssText;return k1(H)})(M):M;var{is:D2,defineProperty:E2,getOwnPropertyDescriptor:N2,getOwnPropertyNames:W2,getOwnPropertySymbols:$2,getPrototypeOf:I2}=Object,j=globalThis,_1=j.trustedTypes,z2=_1?_1.emptyScript:"",U2=j.reactiveElementPolyfillSupport,R=(M,C)=>M,t1={toAttribute(M,C){switch(C){case Boolean:M=M?z2:null;break;case Object:case Array:M=M==null?M:JSON.stringify(M)}return M},fromAttribute(M,C){let H=M;switch(C){case Boolean:H=M!==null;break;case Number:H=M===null?null:Number(M);break;case Object:case Array:try{H=JSON.parse(M)}catch{H=null}}return H}},B1=(M,C)=>!D2(M,C),w1={attribute:!0,type:String,converter:t1,reflect:!1,useDefault:!1,hasChanged:B1};Symbol.metadata??=Symbol("metadata"),j.litPropertyMetadata??=new WeakMap;var x=class extends HTMLElement{static addInitializer(C){this._$Ei(),(this.l??=[]).push(C)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(C,H=w1){if(H.state&&(H.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(C)&&((H=Object.create(H)).wrapped=!0),this.elementProperties.set(C,H),!H.noAccessor){let V=Symbol(),L=this.getPropertyDescriptor(C,V,H);L!==void 0&&E2(this.prototype,C,L)}}static getPropertyDescriptor(C,H,V){let{get:L,set:r}=N2(this.prototype,C)??{get(){return this[H]},set(e){this[H]=e}};return{get:L,set(e){let i=L?.call(this);r?.call(this,e),this.requestUpdate(C,i,V)},configurable:!0,enumerable:!0}}static getPropertyOptions(C){return this.elementProperties.get(C)??w1}static _$Ei(){if(this.hasOwnProperty(R("elementProperties")))return;let C=I2(this);C.finalize(),C.l!==void 0&&(this.l=[...C.l]),this.elementProperties=new Map(C.elementProperties)}static finalize(){if(this.hasOwnProperty(R("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(R("properties"))){let H=this.properties,V=[...W2(H),...$2(H)];for(let L of V)this.createProperty(L,H[L])}let C=this[Symbol.metadata];if(C!==null){let H=litPropertyMetadata.get(C);if(H!==void 0)for(let[V,L]of H)this.elementProperties.set(V,L)}this._$Eh=new Map;for(let[H,V]of this.elementProperties){let L=this._$Eu(H,V);L!==void 0&&this._$Eh.set(L,H)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(C){let H=[];if(Array.isArray(C)){let V=new Set(C.flat(1/0).reverse());for(let L of V)H.unshift(e1(L))}else C!==void 0&&H.push(e1(C));return H}static _$Eu(C,H){let V=H.attribute;return V===!1?void 0:typeof V=="string"?V:typeof C=="string"?C.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(C=>this.enableUpdating=C),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(C=>C(this))}addController(C){(this._$EO??=new Set).add(C),this.renderRoot!==void 0&&this.isConnected&&C.hostConnected?.()}removeController(C){this._$EO?.delete(C)}_$E_(){let C=new Map,H=this.constructor.elementProperties;for(let V of H.keys())this.hasOwnProperty(V)&&(C.set(V,this[V]),delete this[V]);C.size>0&&(this._$Ep=C)}createRenderRoot(){let C=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return b1(C,this.constructor.elementStyles),C}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(C=>C.hostConnected?.())}enableUpdating(C){}disconnectedCallback(){this._$EO?.forEach(C=>C.hostDisconnected?.())}attributeChangedCallback(C,H,V){this._$AK(C,V)}_$ET(C,H){let V=this.constructor.elementProperties.get(C),L=this.constructor._$Eu(C,V);if(L!==void 0&&V.reflect===!0){let r=(V.converter?.toAttribute!==void 0?V.converter:t1).toAttribute(H,V.type);this._$Em=C,r==null?this.removeAttribute(L):this.setAttribute(L,r),this._$Em=null}}_$AK(C,H){let V=this.constructor,L=V._$Eh.get(C);if(L!==void 0&&this._$Em!==L){let r=V.getPropertyOptions(L),e=typeof r.converter=="function"?{fromAttribute:r.converter}:r.converter?.fromAttribute!==void 0?r.converter:t1;this._$Em=L;let i=e.fromAttribute(H,r.type);this[L]=i??this._$Ej?.get(L)??i,this._$Em=null}}requestUpdate(C,H,V,L=!1,r){if(C!==void 0){let e=this.constructor;if(L===!1&&(r=this[C]),V??=e.getPropertyOptions(C),!((V.hasChanged??B1)(r,H)||V.useDefault&&V.reflect&&r===this._$Ej?.get(C)&&!this.hasAttribute(e._$Eu(C,V))))return;this.C(C,H,V)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(C,H,{useDefault:V,reflect:L,wrapped:r},e){V&&!(this._$Ej??=new Map).has(C)&&(this._$Ej.set(C,e??H??this[C]),r!==!0||e!==void 0)||(this._$AL.has(C)||(this.hasUpdated||V||(H=void 0),this._$AL.set(C,H)),L===!0&&this._$Em!==C&&(this._$Eq??=new Set).add(C))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(H){Promise.reject(H)}let C=this.scheduleUpdate();return C!=null&&await C,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[L,r]of this._$Ep)this[L]=r;this._$Ep=void 0}let V=this.constructor.elementProperties;if(V.size>0)for(let[L,r]of V){let{wrapped:e}=r,i=this[L];e!==!0||this._$AL.has(L)||i===void 0||this.C(L,void 0,r,i)}}let C=!1,H=this._$AL;try{C=this.shouldUpdate(H),C?(this.willUpdate(H),this._$EO?.forEach(V=>V.hostUpdate?.()),this.update(H)):this._$EM()}catch(V){throw C=!1,this._$EM(),V}C&&this._$AE(H)}willUpdate(C){}_$AE(C){this._$EO?.forEach(H=>H.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(C)),this.updated(C)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(C){return!0}update(C){this._$Eq&&=this._$Eq.forEach(H=>this._$ET(H,this[H])),this._$EM()}updated(C){}firstUpdated(C){}};x.elementStyles=[],x.shadowRootOptions={mode:"open"},x[R("elementProperties")]=new Map,x[R("finalized")]=new Map,U2?.({ReactiveElement:x}),(j.reactiveElementVersions??=[]).push("2.1.2");var p1=globalThis,T1=M=>M,Y=p1.trustedTypes,P1=Y?Y.createPolicy("lit-html",{createHTML:M=>M}):void 0,W1="$lit$",u=`lit$${Math.random().toFixed(9).slice(2)}$`,$1="?"+u,G2=`<${$1}>`,h=document,D=()=>h.createComment(""),E=M=>M===null||typeof M!="object"&&typeof M!="function",n1=Array.isArray,Q2=M=>n1(M)||typeof M?.[Symbol.iterator]=="function",i1=`[ 	
\f\r]`,F=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,R1=/-->/g,F1=/>/g,S=RegExp(`>|${i1}(?:([^\\s"'>=/]+)(${i1}*=${i1}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),D1=/'/g,E1=/"/g,I1=/^(?:script|style|textarea|title)$/i,l1=M=>(C,...H)=>({_$litType$:M,strings:C,values:H}),a=l1(1),X=l1(2),s5=l1(3),g=Symbol.for("lit-noChange"),m=Symbol.for("lit-nothing"),N1=new WeakMap,c=h.createTreeWalker(h,129);function z1(M,C){if(!n1(M)||!M.hasOwnProperty("raw"))throw Error("invalid template strings array");return P1!==void 0?P1.createHTML(C):C}var q2=(M,C)=>{let H=M.length-1,V=[],L,r=C===2?"<svg>":C===3?"<math>":"",e=F;for(let i=0;i<H;i++){let t=M[i],o,d,A=-1,p=0;for(;p<t.length&&(e.lastIndex=p,d=e.exec(t),d!==null);)p=e.lastIndex,e===F?d[1]==="!--"?e=R1:d[1]!==void 0?e=F1:d[2]!==void 0?(I1.test(d[2])&&(L=RegExp("</"+d[2],"g")),e=S):d[3]!==void 0&&(e=S):e===S?d[0]===">"?(e=L??F,A=-1):d[1]===void 0?A=-2:(A=e.lastIndex-d[2].length,o=d[1],e=d[3]===void 0?S:d[3]==='"'?E1:D1):e===E1||e===D1?e=S:e===R1||e===F1?e=F:(e=S,L=void 0);let n=e===S&&M[i+1].startsWith("/>")?" ":"";r+=e===F?t+G2:A>=0?(V.push(o),t.slice(0,A)+W1+t.slice(A)+u+n):t+u+(A===-2?i:n)}return[z1(M,r+(M[H]||"<?>")+(C===2?"</svg>":C===3?"</math>":"")),V]},N=class M{constructor({strings:C,_$litType$:H},V){let L;this.parts=[];let r=0,e=0,i=C.length-1,t=this.parts,[o,d]=q2(C,H);if(this.el=M.createElement(o,V),c.currentNode=this.el.content,H===2||H===3){let A=this.el.content.firstChild;A.replaceWith(...A.childNodes)}for(;(L=c.nextNode())!==null&&t.length<i;){if(L.nodeType===1){if(L.hasAttributes())for(let A of L.getAttributeNames())if(A.endsWith(W1)){let p=d[e++],n=L.getAttribute(A).split(u),s=/([.?@])?(.*)/.exec(p);t.push({type:1,index:r,name:s[2],strings:n,ctor:s[1]==="."?a1:s[1]==="?"?A1:s[1]==="@"?d1:k}),L.removeAttribute(A)}else A.startsWith(u)&&(t.push({type:6,index:r}),L.removeAttribute(A));if(I1.test(L.tagName)){let A=L.textContent.split(u),p=A.length-1;if(p>0){L.textContent=Y?Y.emptyScript:"";for(let n=0;n<p;n++)L.append(A[n],D()),c.nextNode(),t.push({type:2,index:++r});L.append(A[p],D())}}}else if(L.nodeType===8)if(L.data===$1)t.push({type:2,index:r});else{let A=-1;for(;(A=L.data.indexOf(u,A+1))!==-1;)t.push({type:7,index:r}),A+=u.length-1}r++}}static createElement(C,H){let V=h.createElement("template");return V.innerHTML=C,V}};function y(M,C,H=M,V){if(C===g)return C;let L=V!==void 0?H._$Co?.[V]:H._$Cl,r=E(C)?void 0:C._$litDirective$;return L?.constructor!==r&&(L?._$AO?.(!1),r===void 0?L=void 0:(L=new r(M),L._$AT(M,H,V)),V!==void 0?(H._$Co??=[])[V]=L:H._$Cl=L),L!==void 0&&(C=y(M,L._$AS(M,C.values),L,V)),C}var o1=class{constructor(C,H){this._$AV=[],this._$AN=void 0,this._$AD=C,this._$AM=H}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(C){let{el:{content:H},parts:V}=this._$AD,L=(C?.creationScope??h).importNode(H,!0);c.currentNode=L;let r=c.nextNode(),e=0,i=0,t=V[0];for(;t!==void 0;){if(e===t.index){let o;t.type===2?o=new W(r,r.nextSibling,this,C):t.type===1?o=new t.ctor(r,t.name,t.strings,this,C):t.type===6&&(o=new m1(r,this,C)),this._$AV.push(o),t=V[++i]}e!==t?.index&&(r=c.nextNode(),e++)}return c.currentNode=h,L}p(C){let H=0;for(let V of this._$AV)V!==void 0&&(V.strings!==void 0?(V._$AI(C,V,H),H+=V.strings.length-2):V._$AI(C[H])),H++}},W=class M{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(C,H,V,L){this.type=2,this._$AH=m,this._$AN=void 0,this._$AA=C,this._$AB=H,this._$AM=V,this.options=L,this._$Cv=L?.isConnected??!0}get parentNode(){let C=this._$AA.parentNode,H=this._$AM;return H!==void 0&&C?.nodeType===11&&(C=H.parentNode),C}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(C,H=this){C=y(this,C,H),E(C)?C===m||C==null||C===""?(this._$AH!==m&&this._$AR(),this._$AH=m):C!==this._$AH&&C!==g&&this._(C):C._$litType$!==void 0?this.$(C):C.nodeType!==void 0?this.T(C):Q2(C)?this.k(C):this._(C)}O(C){return this._$AA.parentNode.insertBefore(C,this._$AB)}T(C){this._$AH!==C&&(this._$AR(),this._$AH=this.O(C))}_(C){this._$AH!==m&&E(this._$AH)?this._$AA.nextSibling.data=C:this.T(h.createTextNode(C)),this._$AH=C}$(C){let{values:H,_$litType$:V}=C,L=typeof V=="number"?this._$AC(C):(V.el===void 0&&(V.el=N.createElement(z1(V.h,V.h[0]),this.options)),V);if(this._$AH?._$AD===L)this._$AH.p(H);else{let r=new o1(L,this),e=r.u(this.options);r.p(H),this.T(e),this._$AH=r}}_$AC(C){let H=N1.get(C.strings);return H===void 0&&N1.set(C.strings,H=new N(C)),H}k(C){n1(this._$AH)||(this._$AH=[],this._$AR());let H=this._$AH,V,L=0;for(let r of C)L===H.length?H.push(V=new M(this.O(D()),this.O(D()),this,this.options)):V=H[L],V._$AI(r),L++;L<H.length&&(this._$AR(V&&V._$AB.nextSibling,L),H.length=L)}_$AR(C=this._$AA.nextSibling,H){for(this._$AP?.(!1,!0,H);C!==this._$AB;){let V=T1(C).nextSibling;T1(C).remove(),C=V}}setConnected(C){this._$AM===void 0&&(this._$Cv=C,this._$AP?.(C))}},k=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(C,H,V,L,r){this.type=1,this._$AH=m,this._$AN=void 0,this.element=C,this.name=H,this._$AM=L,this.options=r,V.length>2||V[0]!==""||V[1]!==""?(this._$AH=Array(V.length-1).fill(new String),this.strings=V):this._$AH=m}_$AI(C,H=this,V,L){let r=this.strings,e=!1;if(r===void 0)C=y(this,C,H,0),e=!E(C)||C!==this._$AH&&C!==g,e&&(this._$AH=C);else{let i=C,t,o;for(C=r[0],t=0;t<r.length-1;t++)o=y(this,i[V+t],H,t),o===g&&(o=this._$AH[t]),e||=!E(o)||o!==this._$AH[t],o===m?C=m:C!==m&&(C+=(o??"")+r[t+1]),this._$AH[t]=o}e&&!L&&this.j(C)}j(C){C===m?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,C??"")}},a1=class extends k{constructor(){super(...arguments),this.type=3}j(C){this.element[this.name]=C===m?void 0:C}},A1=class extends k{constructor(){super(...arguments),this.type=4}j(C){this.element.toggleAttribute(this.name,!!C&&C!==m)}},d1=class extends k{constructor(C,H,V,L,r){super(C,H,V,L,r),this.type=5}_$AI(C,H=this){if((C=y(this,C,H,0)??m)===g)return;let V=this._$AH,L=C===m&&V!==m||C.capture!==V.capture||C.once!==V.once||C.passive!==V.passive,r=C!==m&&(V===m||L);L&&this.element.removeEventListener(this.name,this,V),r&&this.element.addEventListener(this.name,this,C),this._$AH=C}handleEvent(C){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,C):this._$AH.handleEvent(C)}},m1=class{constructor(C,H,V){this.element=C,this.type=6,this._$AN=void 0,this._$AM=H,this.options=V}get _$AU(){return this._$AM._$AU}_$AI(C){y(this,C)}};var K2=p1.litHtmlPolyfillSupport;K2?.(N,W),(p1.litHtmlVersions??=[]).push("3.3.3");var U1=(M,C,H)=>{let V=H?.renderBefore??C,L=V._$litPart$;if(L===void 0){let r=H?.renderBefore??null;V._$litPart$=L=new W(C.insertBefore(D(),r),r,void 0,H??{})}return L._$AI(M),L};var v1=globalThis,l=class extends x{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let C=super.createRenderRoot();return this.renderOptions.renderBefore??=C.firstChild,C}update(C){let H=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(C),this._$Do=U1(H,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return g}};l._$litElement$=!0,l.finalized=!0,v1.litElementHydrateSupport?.({LitElement:l});var j2=v1.litElementPolyfillSupport;j2?.({LitElement:l});(v1.litElementVersions??=[]).push("4.2.2");var G1="M21.7,13.35L20.7,14.35L18.65,12.3L19.65,11.3C19.86,11.09 20.21,11.09 20.42,11.3L21.7,12.58C21.91,12.79 21.91,13.14 21.7,13.35M12,18.94L18.06,12.88L20.11,14.93L14.06,21H12V18.94M12,14C7.58,14 4,15.79 4,18V20H10V18.11L14,14.11C13.34,14.03 12.67,14 12,14M12,4A4,4 0 0,0 8,8A4,4 0 0,0 12,12A4,4 0 0,0 16,8A4,4 0 0,0 12,4Z";var Q1="M19,3H18V1H16V3H8V1H6V3H5A2,2 0 0,0 3,5V19A2,2 0 0,0 5,21H10V19H5V8H19V9H21V5A2,2 0 0,0 19,3M21.7,13.35L20.7,14.35L18.65,12.35L19.65,11.35C19.85,11.14 20.19,11.13 20.42,11.35L21.7,12.63C21.89,12.83 21.89,13.15 21.7,13.35M12,18.94L18.07,12.88L20.12,14.88L14.06,21H12V18.94Z";var J="M19,6.41L17.59,5L12,10.59L6.41,5L5,6.41L10.59,12L5,17.59L6.41,19L12,13.41L17.59,19L19,17.59L13.41,12L19,6.41Z";var q1="M19,21H8V7H19M19,5H8A2,2 0 0,0 6,7V21A2,2 0 0,0 8,23H19A2,2 0 0,0 21,21V7A2,2 0 0,0 19,5M16,1H4A2,2 0 0,0 2,3V17H4V3H16V1Z";var K1="M19,4H15.5L14.5,3H9.5L8.5,4H5V6H19M6,19A2,2 0 0,0 8,21H16A2,2 0 0,0 18,19V7H6V19Z";var j1="M24 13L20 17V14H11V12H20V9L24 13M4 20V12H1L11 3L18 9.3V10H15.79L11 5.69L6 10.19V18H16V16H18V20H4Z";var Y1="M15 13L11 17V14H2V12H11V9L15 13M5 20V16H7V18H17V10.19L12 5.69L7.21 10H4.22L12 3L22 12H19V20H5Z";var X1="M19,13H13V19H11V13H5V11H11V5H13V11H19V13Z";var J1="M20.79,13.95L18.46,14.57L16.46,13.44V10.56L18.46,9.43L20.79,10.05L21.31,8.12L19.54,7.65L20,5.88L18.07,5.36L17.45,7.69L15.45,8.82L13,7.38V5.12L14.71,3.41L13.29,2L12,3.29L10.71,2L9.29,3.41L11,5.12V7.38L8.5,8.82L6.5,7.69L5.92,5.36L4,5.88L4.47,7.65L2.7,8.12L3.22,10.05L5.55,9.43L7.55,10.56V13.45L5.55,14.58L3.22,13.96L2.7,15.89L4.47,16.36L4,18.12L5.93,18.64L6.55,16.31L8.55,15.18L11,16.62V18.88L9.29,20.59L10.71,22L12,20.71L13.29,22L14.7,20.59L13,18.88V16.62L15.5,15.17L17.5,16.3L18.12,18.63L20,18.12L19.53,16.35L21.3,15.88L20.79,13.95M9.5,10.56L12,9.11L14.5,10.56V13.44L12,14.89L9.5,13.44V10.56Z";var C2="M12,7A5,5 0 0,1 17,12A5,5 0 0,1 12,17A5,5 0 0,1 7,12A5,5 0 0,1 12,7M12,9A3,3 0 0,0 9,12A3,3 0 0,0 12,15A3,3 0 0,0 15,12A3,3 0 0,0 12,9M12,2L14.39,5.42C13.65,5.15 12.84,5 12,5C11.16,5 10.35,5.15 9.61,5.42L12,2M3.34,7L7.5,6.65C6.9,7.16 6.36,7.78 5.94,8.5C5.5,9.24 5.25,10 5.11,10.79L3.34,7M3.36,17L5.12,13.23C5.26,14 5.53,14.78 5.95,15.5C6.37,16.24 6.91,16.86 7.5,17.37L3.36,17M20.65,7L18.88,10.79C18.74,10 18.47,9.23 18.05,8.5C17.63,7.78 17.1,7.15 16.5,6.64L20.65,7M20.64,17L16.5,17.36C17.09,16.85 17.62,16.22 18.04,15.5C18.46,14.77 18.73,14 18.87,13.21L20.64,17M12,22L9.59,18.56C10.33,18.83 11.14,19 12,19C12.82,19 13.63,18.83 14.37,18.56L12,22Z";var Z="thermostat_cloud",b="thermostat-cloud-schedule-card",C1="thermostat-cloud-schedule-card-editor",$="thermostat-cloud-history-card",H1="thermostat-cloud-history-card-editor",H2=`${Z}/schedule/subscribe`;var Y2=[0,0,0],X2=[1,1,1];function r2(M){let C=/^color\(srgb\s+([\d.e+-]+)\s+([\d.e+-]+)\s+([\d.e+-]+)/.exec(M.trim());if(C)return V2([Number(C[1]),Number(C[2]),Number(C[3])]);let H=/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(M.trim());if(H)return V2([Number(H[1])/255,Number(H[2])/255,Number(H[3])/255])}function V2(M){if(M.every(Number.isFinite))return M.map(C=>Math.min(1,Math.max(0,C)))}function L2([M,C,H]){let V=L=>L<=.04045?L/12.92:((L+.055)/1.055)**2.4;return .2126*V(M)+.7152*V(C)+.0722*V(H)}function M2(M,C){let[H,V]=[L2(M),L2(C)].sort((L,r)=>r-L);return(H+.05)/(V+.05)}function e2(M){return M2(M,Y2)>=M2(M,X2)?"#000":"#fff"}var t2={card_name:"Thermostat-Zeitplan",card_description:"Der Wochenplan eines Thermostat-Cloud-Thermostats: Schaltpunkte ansehen und ändern.",title:"Zeitplan {name}",heat:"Heizen",cool:"Kühlen",range:"Heizen/Kühlen",mode:"Modus des Zeitplans",no_entity:"Wähle in den Einstellungen der Karte ein Thermostat.",loading:"Zeitplan wird geladen…",no_schedule:"Das Thermostat hat noch keinen Zeitplan gemeldet.",create_schedule:"Zeitplan anlegen",time:"Uhrzeit",temperature:"Temperatur",low:"Min.",high:"Max.",carried_over:"vom Vortag übernommen",add_setpoint:"Schaltpunkt hinzufügen",remove_setpoint:"Schaltpunkt entfernen",copy_to:"{day} kopieren nach",copy:"Kopieren",all_days:"Alle Tage",save:"Speichern",discard:"Änderungen verwerfen",saving:"Wird gespeichert…",saved:"Gespeichert. Das Thermostat erhält den Zeitplan, sobald es verbunden ist.",edit_day:"{day} bearbeiten",close_day:"Schließen",learning_on:"Lernen ist an: Das Thermostat schreibt seinen Zeitplan aus den von Hand eingestellten Temperaturen um, ein hier gespeicherter Zeitplan ändert sich also.",turn_off_learning:"Lernen beim Speichern ausschalten",changed_on_thermostat:"Das Thermostat hat seinen Zeitplan geändert, während du ihn bearbeitet hast (Lernen, Drehring oder eine andere App).",load_theirs:"Zeitplan des Thermostats anzeigen",problems:"Vor dem Speichern beheben:",empty_day:"{day} hat keine Schaltpunkte: Füge einen hinzu oder kopiere einen anderen Tag hierher.",same_time:"{day} {time}: zwei Schaltpunkte zur selben Zeit.",out_of_range:"{day} {time}: Temperaturen müssen zwischen {min} und {max} liegen.",range_order:"{day} {time}: Die untere Temperatur muss unter der oberen liegen.",bad_time:"{day}: Ein Schaltpunkt hat keine gültige Uhrzeit.",error_not_a_thermostat:"{entity} ist kein Thermostat-Cloud-Thermostat.",error_not_loaded:"Thermostat Cloud läuft nicht. Prüfe die Integration.",error_unknown:"Etwas ist schiefgegangen: {message}",editor_entity:"Thermostat",editor_title:"Titel (optional)",hold:"Gehalten auf {temperature} bis {until}, danach wieder nach Zeitplan.",resume_schedule:"Zeitplan fortsetzen",away:"Abwesend: Statt des Zeitplans hält das Thermostat seine Eco-Temperaturen, {low} bis {high}.",eco:"Eco: Statt des Zeitplans hält das Thermostat seine Eco-Temperaturen, {low} bis {high}.",history_card_name:"Thermostat-Verlauf",history_card_description:"Die letzten 10 Tage eines Thermostat-Cloud-Thermostats: Stunden Heizen und Kühlen pro Tag und warum.",history_title:"Verlauf {name}",history_loading:"Die letzten Tage werden geladen…",history_empty:"Noch nicht genug Tage. Für jeden Tag, an dem das Thermostat läuft, erscheint ein Balken; schau in ein, zwei Tagen wieder vorbei.",history_error:"Der Verlauf konnte nicht geladen werden: {message}",history_heating:"Heizen",history_cooling:"Kühlen",history_hours:"{hours} Std.",history_bar:"{date}: Heizen {heating}, Kühlen {cooling}",reason_colder:"Kälteres Wetter als sonst",reason_warmer:"Wärmeres Wetter als sonst",reason_adjusted:"Öfter von Hand verstellt als sonst",reason_away_more:"Länger abwesend als sonst",reason_away_less:"Kürzer abwesend als sonst",reason_schedule:"Der Zeitplan wurde geändert",history_usual_day:"Ein gewöhnlicher Tag",history_runtime:"Laufzeit",history_nothing_ran:"Nichts ist gelaufen.",history_degree_days:"Gradtage",history_degree_days_value:"Heizen {heating}, Kühlen {cooling}",history_no_weather:"Keine Wetterdaten für diesen Tag",history_eco_away:"Eco und abwesend",history_eco_away_value:"Eco {eco}, abwesend {away}",history_changes:"Änderungen",history_no_changes:"Keine Änderungen.",source_dial:"Am Drehring des Thermostats",source_schedule:"Durch den Zeitplan des Thermostats",source_person:"Von einer Person in Home Assistant",source_automation:"Durch eine Automation",source_script:"Durch ein Skript",source_host:"Durch Home Assistant",source_rule:"Durch eine Thermostat-Cloud-Regel",source_api:"Durch eine App (API)",source_schedule_edit:"Zeitplan-Änderungen",equipment_heating_stage_1:"Heizstufe 1",equipment_heating_stage_2:"Heizstufe 2",equipment_heating_stage_3:"Heizstufe 3",equipment_aux_heat:"Zusatzheizung",equipment_emergency_heat:"Notheizung",equipment_cooling_stage_1:"Kühlstufe 1",equipment_cooling_stage_2:"Kühlstufe 2",equipment_fan:"Lüfter",equipment_humidifier:"Luftbefeuchter",equipment_dehumidifier:"Luftentfeuchter",equipment_airwave:"Airwave"};var _={card_name:"Thermostat schedule",card_description:"The weekly schedule of a Thermostat Cloud thermostat: see and edit its setpoints.",title:"{name} schedule",heat:"Heat",cool:"Cool",range:"Heat/cool",mode:"Schedule mode",no_entity:"Choose a thermostat in the card's settings.",loading:"Loading the schedule…",no_schedule:"The thermostat has not reported a schedule yet.",create_schedule:"Start a schedule",time:"Time",temperature:"Temperature",low:"Low",high:"High",carried_over:"carried over from the day before",add_setpoint:"Add setpoint",remove_setpoint:"Remove setpoint",copy_to:"Copy {day} to",copy:"Copy",all_days:"All days",save:"Save",discard:"Discard changes",saving:"Saving…",saved:"Saved. The thermostat gets the schedule as soon as it is connected.",edit_day:"Edit {day}",close_day:"Close",learning_on:"Learning is on: the thermostat rewrites its schedule as it learns from the temperatures set by hand, so a schedule saved here will drift.",turn_off_learning:"Turn learning off when saving",changed_on_thermostat:"The thermostat changed its schedule while you were editing (learning, the ring or another app).",load_theirs:"Show the thermostat's schedule",problems:"Fix these before saving:",empty_day:"{day} has no setpoints: add one or copy another day onto it.",same_time:"{day} {time}: two setpoints at the same time.",out_of_range:"{day} {time}: temperatures must be {min} to {max}.",range_order:"{day} {time}: the low temperature must be below the high one.",bad_time:"{day}: a setpoint has no valid time.",error_not_a_thermostat:"{entity} is not a Thermostat Cloud thermostat.",error_not_loaded:"Thermostat Cloud is not running. Check the integration.",error_unknown:"Something went wrong: {message}",editor_entity:"Thermostat",editor_title:"Title (optional)",hold:"Held at {temperature} until {until}, then back to the schedule.",resume_schedule:"Resume schedule",away:"Away: instead of the schedule, the thermostat keeps its eco temperatures, {low} to {high}.",eco:"Eco: instead of the schedule, the thermostat keeps its eco temperatures, {low} to {high}.",history_card_name:"Thermostat history",history_card_description:"The last 10 days of a Thermostat Cloud thermostat: hours of heating and cooling per day, and why.",history_title:"{name} history",history_loading:"Loading the last days…",history_empty:"Not enough days yet. A bar appears for each day the thermostat has run; come back in a day or two.",history_error:"The history could not be loaded: {message}",history_heating:"Heating",history_cooling:"Cooling",history_hours:"{hours} h",history_bar:"{date}: heating {heating}, cooling {cooling}",reason_colder:"Colder weather than usual",reason_warmer:"Warmer weather than usual",reason_adjusted:"Adjusted by hand more than usual",reason_away_more:"Away more than usual",reason_away_less:"Away less than usual",reason_schedule:"The schedule was changed",history_usual_day:"A usual day",history_runtime:"Runtime",history_nothing_ran:"Nothing ran.",history_degree_days:"Degree-days",history_degree_days_value:"heating {heating}, cooling {cooling}",history_no_weather:"No weather for that day",history_eco_away:"Eco and away",history_eco_away_value:"eco {eco}, away {away}",history_changes:"Changes",history_no_changes:"No changes.",source_dial:"At the thermostat's dial",source_schedule:"By the thermostat's schedule",source_person:"By a person in Home Assistant",source_automation:"By an automation",source_script:"By a script",source_host:"By Home Assistant",source_rule:"By a Thermostat Cloud rule",source_api:"By an app (API)",source_schedule_edit:"Schedule edits",equipment_heating_stage_1:"Heating stage 1",equipment_heating_stage_2:"Heating stage 2",equipment_heating_stage_3:"Heating stage 3",equipment_aux_heat:"Auxiliary heat",equipment_emergency_heat:"Emergency heat",equipment_cooling_stage_1:"Cooling stage 1",equipment_cooling_stage_2:"Cooling stage 2",equipment_fan:"Fan",equipment_humidifier:"Humidifier",equipment_dehumidifier:"Dehumidifier",equipment_airwave:"Airwave"};var i2={card_name:"Programación del termostato",card_description:"La programación semanal de un termostato de Thermostat Cloud: consulta y edita sus consignas.",title:"Programación de {name}",heat:"Calor",cool:"Frío",range:"Calor/Frío",mode:"Modo de la programación",no_entity:"Elige un termostato en la configuración de la tarjeta.",loading:"Cargando la programación…",no_schedule:"El termostato aún no ha enviado ninguna programación.",create_schedule:"Crear una programación",time:"Hora",temperature:"Temperatura",low:"Mín.",high:"Máx.",carried_over:"viene del día anterior",add_setpoint:"Añadir consigna",remove_setpoint:"Eliminar consigna",copy_to:"Copiar {day} a",copy:"Copiar",all_days:"Todos los días",save:"Guardar",discard:"Descartar cambios",saving:"Guardando…",saved:"Guardado. El termostato recibirá la programación en cuanto esté conectado.",edit_day:"Editar {day}",close_day:"Cerrar",learning_on:"El aprendizaje está activado: el termostato reescribe su programación a partir de las temperaturas que ajustas a mano, así que una programación guardada aquí irá cambiando.",turn_off_learning:"Desactivar el aprendizaje al guardar",changed_on_thermostat:"El termostato ha cambiado su programación mientras la editabas (aprendizaje, el anillo u otra aplicación).",load_theirs:"Mostrar la programación del termostato",problems:"Corrige esto antes de guardar:",empty_day:"El {day} no tiene consignas: añade una o copia otro día en él.",same_time:"{day} {time}: dos consignas a la misma hora.",out_of_range:"{day} {time}: las temperaturas deben estar entre {min} y {max}.",range_order:"{day} {time}: la temperatura mínima debe ser inferior a la máxima.",bad_time:"{day}: una consigna no tiene una hora válida.",error_not_a_thermostat:"{entity} no es un termostato de Thermostat Cloud.",error_not_loaded:"Thermostat Cloud no está en funcionamiento. Revisa la integración.",error_unknown:"Algo ha salido mal: {message}",editor_entity:"Termostato",editor_title:"Título (opcional)",hold:"Retenido en {temperature} hasta {until}; después vuelve a la programación.",resume_schedule:"Reanudar la programación",away:"Ausente: en lugar de la programación, el termostato mantiene sus temperaturas eco, de {low} a {high}.",eco:"Eco: en lugar de la programación, el termostato mantiene sus temperaturas eco, de {low} a {high}.",history_card_name:"Historial del termostato",history_card_description:"Los últimos 10 días de un termostato de Thermostat Cloud: horas de calefacción y refrigeración por día, y por qué.",history_title:"Historial de {name}",history_loading:"Cargando los últimos días…",history_empty:"Todavía no hay suficientes días. Aparece una barra por cada día que funciona el termostato; vuelve en un día o dos.",history_error:"No se pudo cargar el historial: {message}",history_heating:"Calefacción",history_cooling:"Refrigeración",history_hours:"{hours} h",history_bar:"{date}: calefacción {heating}, refrigeración {cooling}",reason_colder:"Tiempo más frío de lo habitual",reason_warmer:"Tiempo más cálido de lo habitual",reason_adjusted:"Ajustado a mano más de lo habitual",reason_away_more:"Fuera de casa más de lo habitual",reason_away_less:"Fuera de casa menos de lo habitual",reason_schedule:"Se cambió la programación",history_usual_day:"Un día normal",history_runtime:"Tiempo de funcionamiento",history_nothing_ran:"Nada funcionó.",history_degree_days:"Grados-día",history_degree_days_value:"calefacción {heating}, refrigeración {cooling}",history_no_weather:"No hay datos del tiempo de ese día",history_eco_away:"Eco y fuera de casa",history_eco_away_value:"eco {eco}, fuera de casa {away}",history_changes:"Cambios",history_no_changes:"Sin cambios.",source_dial:"En el dial del termostato",source_schedule:"Por la programación del termostato",source_person:"Por una persona en Home Assistant",source_automation:"Por una automatización",source_script:"Por un script",source_host:"Por Home Assistant",source_rule:"Por una regla de Thermostat Cloud",source_api:"Por una aplicación (API)",source_schedule_edit:"Cambios en la programación",equipment_heating_stage_1:"Calefacción etapa 1",equipment_heating_stage_2:"Calefacción etapa 2",equipment_heating_stage_3:"Calefacción etapa 3",equipment_aux_heat:"Calefacción auxiliar",equipment_emergency_heat:"Calefacción de emergencia",equipment_cooling_stage_1:"Refrigeración etapa 1",equipment_cooling_stage_2:"Refrigeración etapa 2",equipment_fan:"Ventilador",equipment_humidifier:"Humidificador",equipment_dehumidifier:"Deshumidificador",equipment_airwave:"Airwave"};var o2={card_name:"Planification du thermostat",card_description:"La planification hebdomadaire d'un thermostat Thermostat Cloud : consultez et modifiez ses consignes.",title:"Planification de {name}",heat:"Chauffage",cool:"Climatisation",range:"Chauffage/Climatisation",mode:"Mode de la planification",no_entity:"Choisissez un thermostat dans les paramètres de la carte.",loading:"Chargement de la planification…",no_schedule:"Le thermostat n'a pas encore transmis de planification.",create_schedule:"Créer une planification",time:"Heure",temperature:"Température",low:"Min.",high:"Max.",carried_over:"reprise de la veille",add_setpoint:"Ajouter une consigne",remove_setpoint:"Supprimer la consigne",copy_to:"Copier {day} vers",copy:"Copier",all_days:"Tous les jours",save:"Enregistrer",discard:"Annuler les modifications",saving:"Enregistrement…",saved:"Enregistré. Le thermostat reçoit la planification dès qu'il est connecté.",edit_day:"Modifier {day}",close_day:"Fermer",learning_on:"L'apprentissage est activé : le thermostat réécrit sa planification d'après les températures réglées à la main, une planification enregistrée ici va donc changer.",turn_off_learning:"Désactiver l'apprentissage à l'enregistrement",changed_on_thermostat:"Le thermostat a modifié sa planification pendant que vous la modifiiez (apprentissage, bague ou une autre application).",load_theirs:"Afficher la planification du thermostat",problems:"À corriger avant d'enregistrer :",empty_day:"Aucune consigne le {day} : ajoutez-en une ou copiez-y un autre jour.",same_time:"{day} {time} : deux consignes à la même heure.",out_of_range:"{day} {time} : les températures doivent être comprises entre {min} et {max}.",range_order:"{day} {time} : la température basse doit être inférieure à la haute.",bad_time:"{day} : une consigne n'a pas d'heure valide.",error_not_a_thermostat:"{entity} n'est pas un thermostat Thermostat Cloud.",error_not_loaded:"Thermostat Cloud ne fonctionne pas. Vérifiez l'intégration.",error_unknown:"Une erreur s'est produite : {message}",editor_entity:"Thermostat",editor_title:"Titre (facultatif)",hold:"Maintenu à {temperature} jusqu'à {until}, puis retour à la planification.",resume_schedule:"Reprendre la planification",away:"Absent : au lieu de la planification, le thermostat maintient ses températures éco, de {low} à {high}.",eco:"Éco : au lieu de la planification, le thermostat maintient ses températures éco, de {low} à {high}.",history_card_name:"Historique du thermostat",history_card_description:"Les 10 derniers jours d'un thermostat Thermostat Cloud : les heures de chauffage et de climatisation par jour, et pourquoi.",history_title:"Historique {name}",history_loading:"Chargement des derniers jours…",history_empty:"Pas encore assez de jours. Une barre apparaît pour chaque jour de fonctionnement du thermostat ; revenez dans un jour ou deux.",history_error:"Impossible de charger l'historique : {message}",history_heating:"Chauffage",history_cooling:"Climatisation",history_hours:"{hours} h",history_bar:"{date} : chauffage {heating}, climatisation {cooling}",reason_colder:"Temps plus froid que d'habitude",reason_warmer:"Temps plus doux que d'habitude",reason_adjusted:"Réglé à la main plus souvent que d'habitude",reason_away_more:"Absent plus longtemps que d'habitude",reason_away_less:"Absent moins longtemps que d'habitude",reason_schedule:"Le planning a été modifié",history_usual_day:"Une journée habituelle",history_runtime:"Durée de fonctionnement",history_nothing_ran:"Rien n'a fonctionné.",history_degree_days:"Degrés-jours",history_degree_days_value:"chauffage {heating}, climatisation {cooling}",history_no_weather:"Pas de données météo pour ce jour",history_eco_away:"Éco et absent",history_eco_away_value:"éco {eco}, absent {away}",history_changes:"Modifications",history_no_changes:"Aucune modification.",source_dial:"À la molette du thermostat",source_schedule:"Par le planning du thermostat",source_person:"Par une personne dans Home Assistant",source_automation:"Par une automatisation",source_script:"Par un script",source_host:"Par Home Assistant",source_rule:"Par une règle de Thermostat Cloud",source_api:"Par une application (API)",source_schedule_edit:"Modifications du planning",equipment_heating_stage_1:"Chauffage niveau 1",equipment_heating_stage_2:"Chauffage niveau 2",equipment_heating_stage_3:"Chauffage niveau 3",equipment_aux_heat:"Chauffage d'appoint",equipment_emergency_heat:"Chauffage de secours",equipment_cooling_stage_1:"Climatisation niveau 1",equipment_cooling_stage_2:"Climatisation niveau 2",equipment_fan:"Ventilateur",equipment_humidifier:"Humidificateur",equipment_dehumidifier:"Déshumidificateur",equipment_airwave:"Airwave"};var a2={card_name:"Programmazione del termostato",card_description:"La programmazione settimanale di un termostato Thermostat Cloud: visualizza e modifica i suoi setpoint.",title:"Programmazione di {name}",heat:"Riscaldamento",cool:"Freddo",range:"Caldo/Freddo",mode:"Modalità della programmazione",no_entity:"Scegli un termostato nelle impostazioni della scheda.",loading:"Caricamento della programmazione…",no_schedule:"Il termostato non ha ancora comunicato una programmazione.",create_schedule:"Crea una programmazione",time:"Ora",temperature:"Temperatura",low:"Min.",high:"Max.",carried_over:"ripreso dal giorno precedente",add_setpoint:"Aggiungi setpoint",remove_setpoint:"Rimuovi setpoint",copy_to:"Copia {day} su",copy:"Copia",all_days:"Tutti i giorni",save:"Salva",discard:"Annulla le modifiche",saving:"Salvataggio…",saved:"Salvato. Il termostato riceverà la programmazione appena sarà connesso.",edit_day:"Modifica {day}",close_day:"Chiudi",learning_on:"L'apprendimento è attivo: il termostato riscrive la sua programmazione in base alle temperature impostate a mano, quindi una programmazione salvata qui cambierà.",turn_off_learning:"Disattiva l'apprendimento al salvataggio",changed_on_thermostat:"Il termostato ha cambiato la sua programmazione mentre la stavi modificando (apprendimento, la ghiera o un'altra app).",load_theirs:"Mostra la programmazione del termostato",problems:"Correggi prima di salvare:",empty_day:"Nessun setpoint per {day}: aggiungine uno o copia qui un altro giorno.",same_time:"{day} {time}: due setpoint alla stessa ora.",out_of_range:"{day} {time}: le temperature devono essere tra {min} e {max}.",range_order:"{day} {time}: la temperatura minima deve essere inferiore alla massima.",bad_time:"{day}: un setpoint non ha un orario valido.",error_not_a_thermostat:"{entity} non è un termostato Thermostat Cloud.",error_not_loaded:"Thermostat Cloud non è in esecuzione. Controlla l'integrazione.",error_unknown:"Qualcosa è andato storto: {message}",editor_entity:"Termostato",editor_title:"Titolo (facoltativo)",hold:"Mantenuto a {temperature} fino a {until}, poi di nuovo secondo la programmazione.",resume_schedule:"Riprendi la programmazione",away:"Fuori casa: invece della programmazione, il termostato mantiene le sue temperature eco, da {low} a {high}.",eco:"Eco: invece della programmazione, il termostato mantiene le sue temperature eco, da {low} a {high}.",history_card_name:"Cronologia del termostato",history_card_description:"Gli ultimi 10 giorni di un termostato di Thermostat Cloud: ore di riscaldamento e raffrescamento al giorno, e perché.",history_title:"Cronologia {name}",history_loading:"Caricamento degli ultimi giorni…",history_empty:"Non ci sono ancora abbastanza giorni. Compare una barra per ogni giorno in cui il termostato ha funzionato; torna tra un giorno o due.",history_error:"Impossibile caricare la cronologia: {message}",history_heating:"Riscaldamento",history_cooling:"Raffrescamento",history_hours:"{hours} h",history_bar:"{date}: riscaldamento {heating}, raffrescamento {cooling}",reason_colder:"Tempo più freddo del solito",reason_warmer:"Tempo più caldo del solito",reason_adjusted:"Regolato a mano più del solito",reason_away_more:"Fuori casa più del solito",reason_away_less:"Fuori casa meno del solito",reason_schedule:"La programmazione è stata modificata",history_usual_day:"Una giornata normale",history_runtime:"Tempo di funzionamento",history_nothing_ran:"Non ha funzionato nulla.",history_degree_days:"Gradi giorno",history_degree_days_value:"riscaldamento {heating}, raffrescamento {cooling}",history_no_weather:"Nessun dato meteo per quel giorno",history_eco_away:"Eco e fuori casa",history_eco_away_value:"eco {eco}, fuori casa {away}",history_changes:"Modifiche",history_no_changes:"Nessuna modifica.",source_dial:"Dalla ghiera del termostato",source_schedule:"Dalla programmazione del termostato",source_person:"Da una persona in Home Assistant",source_automation:"Da un'automazione",source_script:"Da uno script",source_host:"Da Home Assistant",source_rule:"Da una regola di Thermostat Cloud",source_api:"Da un'app (API)",source_schedule_edit:"Modifiche alla programmazione",equipment_heating_stage_1:"Riscaldamento stadio 1",equipment_heating_stage_2:"Riscaldamento stadio 2",equipment_heating_stage_3:"Riscaldamento stadio 3",equipment_aux_heat:"Riscaldamento ausiliario",equipment_emergency_heat:"Riscaldamento di emergenza",equipment_cooling_stage_1:"Raffrescamento stadio 1",equipment_cooling_stage_2:"Raffrescamento stadio 2",equipment_fan:"Ventola",equipment_humidifier:"Umidificatore",equipment_dehumidifier:"Deumidificatore",equipment_airwave:"Airwave"};var A2={card_name:"Thermostaatschema",card_description:"Het weekschema van een Thermostat Cloud-thermostaat: bekijk en wijzig de schakelmomenten.",title:"Schema {name}",heat:"Verwarmen",cool:"Koelen",range:"Verwarmen/koelen",mode:"Schemamodus",no_entity:"Kies een thermostaat in de instellingen van de kaart.",loading:"Schema wordt geladen…",no_schedule:"De thermostaat heeft nog geen schema doorgegeven.",create_schedule:"Schema aanmaken",time:"Tijd",temperature:"Temperatuur",low:"Min.",high:"Max.",carried_over:"overgenomen van de vorige dag",add_setpoint:"Schakelmoment toevoegen",remove_setpoint:"Schakelmoment verwijderen",copy_to:"{day} kopiëren naar",copy:"Kopiëren",all_days:"Alle dagen",save:"Bewaar",discard:"Wijzigingen verwerpen",saving:"Bewaren…",saved:"Bewaard. De thermostaat krijgt het schema zodra hij verbonden is.",edit_day:"{day} bewerken",close_day:"Sluiten",learning_on:"Leren staat aan: de thermostaat herschrijft zijn schema op basis van de temperaturen die je met de hand instelt, dus een schema dat je hier bewaart blijft niet zo.",turn_off_learning:"Leren uitzetten bij bewaren",changed_on_thermostat:"De thermostaat heeft zijn schema gewijzigd terwijl je het bewerkte (leren, de draairing of een andere app).",load_theirs:"Schema van de thermostaat tonen",problems:"Los dit op voordat je bewaart:",empty_day:"Geen schakelmomenten op {day}: voeg er een toe of kopieer een andere dag hierheen.",same_time:"{day} {time}: twee schakelmomenten op hetzelfde tijdstip.",out_of_range:"{day} {time}: temperaturen moeten tussen {min} en {max} liggen.",range_order:"{day} {time}: de lage temperatuur moet onder de hoge liggen.",bad_time:"{day}: een schakelmoment heeft geen geldige tijd.",error_not_a_thermostat:"{entity} is geen Thermostat Cloud-thermostaat.",error_not_loaded:"Thermostat Cloud draait niet. Controleer de integratie.",error_unknown:"Er is iets misgegaan: {message}",editor_entity:"Thermostaat",editor_title:"Titel (optioneel)",hold:"Vastgehouden op {temperature} tot {until}, daarna weer volgens schema.",resume_schedule:"Schema hervatten",away:"Afwezig: in plaats van het schema houdt de thermostaat zijn eco-temperaturen aan, {low} tot {high}.",eco:"Eco: in plaats van het schema houdt de thermostaat zijn eco-temperaturen aan, {low} tot {high}.",history_card_name:"Thermostaatgeschiedenis",history_card_description:"De laatste 10 dagen van een Thermostat Cloud-thermostaat: uren verwarmen en koelen per dag, en waarom.",history_title:"Geschiedenis {name}",history_loading:"De laatste dagen worden geladen…",history_empty:"Nog niet genoeg dagen. Voor elke dag dat de thermostaat draait verschijnt een balk; kom over een dag of twee terug.",history_error:"De geschiedenis kon niet worden geladen: {message}",history_heating:"Verwarmen",history_cooling:"Koelen",history_hours:"{hours} u",history_bar:"{date}: verwarmen {heating}, koelen {cooling}",reason_colder:"Kouder weer dan normaal",reason_warmer:"Warmer weer dan normaal",reason_adjusted:"Vaker met de hand bijgesteld dan normaal",reason_away_more:"Langer afwezig dan normaal",reason_away_less:"Korter afwezig dan normaal",reason_schedule:"Het schema is gewijzigd",history_usual_day:"Een gewone dag",history_runtime:"Looptijd",history_nothing_ran:"Er heeft niets gedraaid.",history_degree_days:"Graaddagen",history_degree_days_value:"verwarmen {heating}, koelen {cooling}",history_no_weather:"Geen weergegevens voor die dag",history_eco_away:"Eco en afwezig",history_eco_away_value:"eco {eco}, afwezig {away}",history_changes:"Wijzigingen",history_no_changes:"Geen wijzigingen.",source_dial:"Aan de draaiknop van de thermostaat",source_schedule:"Door het schema van de thermostaat",source_person:"Door een persoon in Home Assistant",source_automation:"Door een automatisering",source_script:"Door een script",source_host:"Door Home Assistant",source_rule:"Door een Thermostat Cloud-regel",source_api:"Door een app (API)",source_schedule_edit:"Schemawijzigingen",equipment_heating_stage_1:"Verwarming trap 1",equipment_heating_stage_2:"Verwarming trap 2",equipment_heating_stage_3:"Verwarming trap 3",equipment_aux_heat:"Bijverwarming",equipment_emergency_heat:"Noodverwarming",equipment_cooling_stage_1:"Koeling trap 1",equipment_cooling_stage_2:"Koeling trap 2",equipment_fan:"Ventilator",equipment_humidifier:"Luchtbevochtiger",equipment_dehumidifier:"Luchtontvochtiger",equipment_airwave:"Airwave"};var d2={en:_,de:t2,es:i2,fr:o2,it:a2,nl:A2};function v(M,C,H={}){let V=(M??"en").toLowerCase();return((d2[V]??d2[V.split("-")[0]]??_)[C]??_[C]).replace(/\{(\w+)\}/g,(e,i)=>i in H?String(H[i]):e)}var x1=["HEAT","COOL","RANGE"];var O={"°C":{min:4.5,max:32,step:.5},"°F":{min:40,max:90,step:1}};function p2(M){return M==="°F"?"°F":"°C"}function U(M,C){return C==="°C"?Math.round(M*10)/10:Math.round(M*9/5+32)}function n2(M,C){let H=C==="°C"?M:(M-32)*5/9;return Math.round(H*2)/2}function I(M,C){return typeof M=="number"&&Number.isFinite(M)?M:C}function m2(M,C){return x1.includes(M)?M:C}function l2(M){let{ver:C,name:H,schedule_mode:V,days:L,...r}=M,e=m2(V,"HEAT"),i=[];for(let t=0;t<7;t++){let o=Object.values(L?.[String(t)]??{}).map(d=>{let{time:A,type:p,entry_type:n,temp:s,"temp-min":P2,"temp-max":R2,...F2}=d,f1=m2(p,e),Q={time:I(A,0),type:f1,continuation:n==="continuation",extra:F2};return f1==="RANGE"?(Q.low=I(P2,NaN),Q.high=I(R2,NaN)):Q.temp=I(s,NaN),Q});i.push(G(o))}return{ver:I(C,1),name:H,mode:e,days:i,extra:r}}function G(M){return[...M].sort((C,H)=>C.time-H.time||Number(H.continuation)-Number(C.continuation))}function V1(M){let C={};M.days.forEach((V,L)=>{let r=new Set(V.filter(t=>!t.continuation).map(t=>t.time)),e=G(V).filter(t=>!t.continuation||!r.has(t.time)),i={};e.forEach((t,o)=>{let d={...t.extra,time:t.time,type:t.type,entry_type:t.continuation?"continuation":"setpoint"};t.type==="RANGE"?(d["temp-min"]=t.low,d["temp-max"]=t.high):d.temp=t.temp,i[String(o)]=d}),C[String(L)]=i});let H={...M.extra,ver:M.ver,schedule_mode:M.mode,days:C};return M.name!==void 0&&(H.name=M.name),H}function v2(M){return{ver:2,mode:M,days:Array.from({length:7},()=>[z(M,25200,M==="COOL"?24:20),z(M,79200,M==="COOL"?27:17)]),extra:{}}}function z(M,C,H){if(M==="RANGE"){let V=Math.min(H,O["°C"].max-3);return{time:C,type:M,low:V,high:V+3,continuation:!1,extra:{}}}return{time:C,type:M,temp:H,continuation:!1,extra:{}}}function x2(M,C){let H=M.days.map(V=>V.map(L=>{if(L.type===C)return L;let r=L.type==="RANGE"?C==="COOL"?L.high:L.low:L.temp,e=z(C,L.time,r);if(C==="RANGE"&&L.type==="COOL"){let i=Math.max(r,O["°C"].min+3);e={...e,low:i-3,high:i}}return{...e,continuation:L.continuation,extra:L.extra}}));return{...M,mode:C,days:H}}function Z2(M,C,H){let V=M.days.map(r=>r),L=M.days[C].filter(r=>!r.continuation);for(let r of H){if(r===C)continue;let e=M.days[r].filter(i=>i.continuation);V[r]=G([...e,...L.map(i=>({...i,extra:{...i.extra}}))])}return{...M,days:V}}function Z1(M,C){let H=[],V=O[C],L=r=>{if(r===void 0||!Number.isFinite(r))return!1;let e=U(r,C);return e>=V.min&&e<=V.max&&r>=O["°C"].min&&r<=O["°C"].max};return M.days.forEach((r,e)=>{if(r.length===0){H.push({key:"empty_day",day:e});return}let i=new Set;for(let t of r.filter(o=>!o.continuation)){let{time:o}=t;if(!Number.isInteger(o)||o<0||o>=86400){H.push({key:"bad_time",day:e,time:o});continue}i.has(o)&&H.push({key:"same_time",day:e,time:o}),i.add(o),(t.type==="RANGE"?[t.low,t.high]:[t.temp]).every(L)?t.type==="RANGE"&&t.low>=t.high&&H.push({key:"range_order",day:e,time:o}):H.push({key:"out_of_range",day:e,time:o,min:V.min,max:V.max})}}),H}function s2(M){let C=(M+6)%7;return Array.from({length:7},(H,V)=>(C+V)%7)}var r5=["sunday","monday","tuesday","wednesday","thursday","friday","saturday"];function u2(M,C){let H=M?r5.indexOf(M):-1;if(H>=0)return H;try{let V=new Intl.Locale(C),L=V.getWeekInfo?.()??V.weekInfo;if(L)return L.firstDay%7}catch{}return 1}function L1(M,C){let H;try{H=new Intl.DateTimeFormat(M,{weekday:C,timeZone:"UTC"})}catch{H=new Intl.DateTimeFormat("en",{weekday:C,timeZone:"UTC"})}return Array.from({length:7},(V,L)=>H.format(Date.UTC(2024,0,1+L)))}function s1(M){let C=Math.floor(M/60),H=V=>String(V).padStart(2,"0");return`${H(Math.floor(C/60)%24)}:${H(C%60)}`}function S2(M){let C=/^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(M);if(!C)return NaN;let[H,V,L]=[C[1],C[2],C[3]??"0"].map(Number);return H>23||V>59||L>59?NaN:H*3600+V*60+L}function c2(M,C){let H=M.days[C].filter(L=>L.time>=0&&L.time<86400),V=[];if(H.length===0||H[0].time>0){let L=e5(M,C),r=H.length?H[0].time:86400;L&&V.push({start:0,end:r,entry:L,carried:!0})}return H.forEach((L,r)=>{let e=r+1<H.length?H[r+1].time:86400;e>L.time&&V.push({start:L.time,end:e,entry:L,carried:!1})}),V}function e5(M,C){for(let H=1;H<=7;H++){let V=M.days[(C-H+7)%7];if(V.length)return V[V.length-1]}}function u1(M){return JSON.stringify(M,(C,H)=>H&&typeof H=="object"&&!Array.isArray(H)?Object.fromEntries(Object.entries(H).sort(([V],[L])=>V<L?-1:V>L?1:0)):H)}var h2={HEAT:"heat",COOL:"cool",RANGE:"range"},i5=[0,6,12,18,24],o5=2;function c1(M){return Object.values(M.entities??{}).find(H=>H.platform===Z&&H.entity_id.startsWith("climate."))?.entity_id}var w=class extends l{constructor(){super(...arguments);this._copyTargets=new Set;this._turnOffLearning=!0;this._saving=!1;this._saved=!1}static getConfigElement(){return document.createElement(C1)}static getStubConfig(H){return{type:`custom:${b}`,entity:c1(H)??""}}setConfig(H){if(!H||typeof H!="object")throw new Error("Invalid configuration");if(H.entity&&!H.entity.startsWith("climate."))throw new Error("entity must be a climate entity of Thermostat Cloud");this._config=H}getCardSize(){return 9}getGridOptions(){return{columns:12,min_columns:6,rows:"auto"}}connectedCallback(){super.connectedCallback(),this._subscribe(),this._resized??=new ResizeObserver(()=>this._fitLabels()),this._resized.observe(this)}disconnectedCallback(){super.disconnectedCallback(),this._unsubscribeNow(),this._resized?.disconnect()}shouldUpdate(H){if(H.size!==1||!H.has("hass"))return!0;let V=H.get("hass"),L=this.hass;if(!V||!L)return!0;let r=this._config?.entity;return V.connection!==L.connection||V.language!==L.language||V.locale!==L.locale||V.config!==L.config||V.themes!==L.themes||r!==void 0&&V.states[r]!==L.states[r]}updated(H){(H.has("hass")||H.has("_config"))&&this._subscribe(),this._fitLabels()}_fitLabels(){for(let H of this.renderRoot.querySelectorAll(".segment")){let V=H.querySelector(".label");if(!V)continue;V.hidden=!1;let L=H.getBoundingClientRect(),r=V.getBoundingClientRect();V.hidden=r.left<L.left||r.right>L.right-o5;let e=r2(getComputedStyle(H).backgroundColor);e&&(V.style.color=e2(e))}}_subscribe(){let H=this._config?.entity,V=this.hass?.connection;if(!this.isConnected||!H||!V)return;let L=this._subscribedTo;L&&L.entity===H&&L.connection===V||(this._unsubscribeNow(),this._subscribedTo={entity:H,connection:V},this._message=void 0,this._base=this._week=this._theirs=void 0,this._error=void 0,this._unsubscribe=V.subscribeMessage(r=>this._received(r),{type:H2,entity_id:H}).catch(r=>{this._error=this._describe(r)}))}_unsubscribeNow(){let H=this._unsubscribe;this._unsubscribe=void 0,this._subscribedTo=void 0,H?.then(V=>V?.()).catch(()=>{})}_received(H){this._message=H;let V=H.schedule?l2(H.schedule):void 0;!this._dirty||V&&this._week&&g2(V,this._week)?(this._base=V,this._week=V,this._theirs=void 0):(this._base=V,this._theirs=V)}get _dirty(){return this._week?!this._base||!g2(this._base,this._week):!1}get _language(){return this.hass?.locale?.language??this.hass?.language??"en"}_t(H,V){return v(this.hass?.language,H,V)}get _unit(){return p2(this.hass?.config.unit_system.temperature)}_temperature(H){return H===void 0||!Number.isFinite(H)?"–":`${U(H,this._unit).toLocaleString(this._language)} ${this._unit}`}_entryLabel(H){return H.type==="RANGE"?`${this._temperature(H.low)} – ${this._temperature(H.high)}`:this._temperature(H.temp)}_entryNumbers(H){let V=L=>L===void 0||!Number.isFinite(L)?"–":U(L,this._unit).toLocaleString(this._language);return H.type==="RANGE"?`${V(H.low)}–${V(H.high)}`:V(H.temp)}_hour(H){try{return new Date(Date.UTC(2024,0,1,H)).toLocaleTimeString(this._language,{hour:"numeric",timeZone:"UTC"})}catch{return String(H)}}_time(H){let V=new Date(Date.UTC(2024,0,1,0,0,H));try{return V.toLocaleTimeString(this._language,{hour:"numeric",minute:"2-digit",timeZone:"UTC"})}catch{return s1(H)}}render(){let H=this._config,V=H?.entity,r=(V?this.hass?.states[V]:void 0)?.attributes.friendly_name??V??"",e=H?.title||(V?this._t("title",{name:r}):this._t("card_name"));return a`
      <ha-card>
        <div class="header">
          <h2 class="title">${e}</h2>
          ${this._week?this._renderMode(this._week):m}
        </div>
        <div class="content">${this._renderBody(V)}</div>
      </ha-card>
    `}_renderBody(H){if(!H)return a`<p class="note">${this._t("no_entity")}</p>`;if(this._error&&!this._message)return a`<p class="message error" role="alert">${this._error}</p>`;if(!this._message)return a`<p class="note">${this._t("loading")}</p>`;let V=this._week;if(!V)return a`
        <p class="note">${this._t("no_schedule")}</p>
        <div class="actions">
          <button class="primary" @click=${()=>this._week=v2("HEAT")}>
            ${this._t("create_schedule")}
          </button>
        </div>
      `;let L=Z1(V,this._unit),r=L1(this._language,"long"),e=L1(this._language,"short"),i=s2(u2(this.hass?.locale?.first_weekday,this._language));return a`
      ${this._message.learning?a`<div class="message warning" role="note">
            <p>${this._t("learning_on")}</p>
            <label class="check">
              <input
                type="checkbox"
                .checked=${this._turnOffLearning}
                @change=${t=>this._turnOffLearning=t.target.checked}
              />
              ${this._t("turn_off_learning")}
            </label>
          </div>`:m}
      ${this._message.eco?this._renderEco(this._message.eco):this._message.hold?this._renderHold(this._message.hold):m}
      ${this._theirs?a`<div class="message warning" role="status">
            <p>${this._t("changed_on_thermostat")}</p>
            <button @click=${this._loadTheirs}>${this._t("load_theirs")}</button>
          </div>`:m}
      <div class="week" role="list">
        ${i.map(t=>this._renderDay(V,t,r,e,i))}
        <div class="hours" aria-hidden="true">
          <span></span>
          <div class="scale">
            ${i5.map(t=>a`<span style="left:${t/24*100}%">${this._hour(t%24)}</span>`)}
          </div>
        </div>
      </div>
      ${L.length?this._renderProblems(L,r):m}
      ${this._error?a`<p class="message error" role="alert">${this._error}</p>`:m}
      ${this._saved&&!this._dirty?a`<p class="message ok" role="status">${this._t("saved")}</p>`:m}
      <div class="actions">
        <button ?disabled=${!this._dirty||this._saving} @click=${this._discard}>
          ${this._t("discard")}
        </button>
        <button
          class="primary"
          ?disabled=${!this._dirty||this._saving||L.length>0}
          @click=${this._save}
        >
          ${this._saving?this._t("saving"):this._t("save")}
        </button>
      </div>
    `}_renderHold(H){let V=H.target!==null?this._temperature(H.target):`${this._temperature(H.low??void 0)} – ${this._temperature(H.high??void 0)}`,L=H.until;try{L=new Date(H.until).toLocaleString(this._language,{weekday:"short",hour:"numeric",minute:"2-digit"})}catch{}return a`<div class="message hold" role="status">
      <p>${this._t("hold",{temperature:V,until:L})}</p>
      <button @click=${this._resumeSchedule}>${this._t("resume_schedule")}</button>
    </div>`}_renderEco(H){let V={low:this._temperature(H.low??void 0),high:this._temperature(H.high??void 0)};return a`<div class="message hold eco" role="status">
      <p>${this._t(H.away?"away":"eco",V)}</p>
    </div>`}async _resumeSchedule(){let H=this._config?.entity;if(!(!this.hass||!H)){this._error=void 0;try{await this.hass.callService(Z,"resume_schedule",{},{entity_id:H})}catch(V){this._error=this._describe(V)}}}_renderMode(H){return a`
      <label class="mode">
        <span class="visually-hidden">${this._t("mode")}</span>
        <select
          aria-label=${this._t("mode")}
          .value=${H.mode}
          @change=${V=>this._edit(x2(H,V.target.value))}
        >
          ${x1.map(V=>a`<option value=${V} ?selected=${V===H.mode}>
                ${this._t(h2[V])}
              </option>`)}
        </select>
      </label>
    `}_renderDay(H,V,L,r,e){let i=this._day===V,t=c2(H,V),[o,d]=a5(H);return a`
      <div class="day ${i?"open":""}" role="listitem">
        <button
          class="day-line"
          aria-expanded=${i?"true":"false"}
          aria-label=${this._t("edit_day",{day:L[V]})}
          @click=${()=>this._openDay(i?void 0:V)}
        >
          <span class="day-name" title=${L[V]}>${r[V]}</span>
          <span class="line">
            ${t.map(A=>{let p=A5(f2(A.entry),o,d),n=this._entryLabel(A.entry),s=A.carried?`${this._time(A.start)} ${n} (${this._t("carried_over")})`:`${this._time(A.start)} ${n}`;return a`<span
                class="segment ${A.entry.type.toLowerCase()} ${A.carried?"carried":""}"
                style="left:${(A.start/864).toFixed(3)}%;width:${((A.end-A.start)/864).toFixed(3)}%;--tc-share:${p}%"
                title=${s}
                ><span class="label">${this._entryNumbers(A.entry)}</span></span
              >`})}
          </span>
        </button>
        ${i?this._renderDayEditor(H,V,L,e):m}
      </div>
    `}_renderDayEditor(H,V,L,r){let e=O[this._unit],i=H.days[V],t=(o,d,A,p)=>a`
      <label class="field">
        <span>${p}</span>
        <span class="with-unit">
          <input
            type="number"
            inputmode="decimal"
            min=${e.min}
            max=${e.max}
            step=${e.step}
            .value=${Number.isFinite(o[A])?String(U(o[A],this._unit)):""}
            @change=${n=>this._setTemperature(V,d,A,n.target.value)}
          />
          <span class="unit">${this._unit}</span>
        </span>
      </label>
    `;return a`
      <div class="editor">
        <div class="editor-head">
          <h3>${L[V]}</h3>
          ${O2(J,this._t("close_day"),()=>this._openDay(void 0))}
        </div>
        <ul class="entries">
          ${i.map((o,d)=>o.continuation?a`<li class="entry carried">
                  <span>${this._time(o.time)}</span>
                  <span>${this._entryLabel(o)}</span>
                  <span class="hint">${this._t("carried_over")}</span>
                </li>`:a`<li class="entry ${o.type.toLowerCase()}">
                  <label class="field">
                    <span>${this._t("time")}</span>
                    <input
                      type="time"
                      step="60"
                      required
                      .value=${Number.isFinite(o.time)?s1(o.time):""}
                      @change=${A=>this._setTime(V,d,A.target.value)}
                    />
                  </label>
                  ${o.type==="RANGE"?a`${t(o,d,"low",this._t("low"))}
                      ${t(o,d,"high",this._t("high"))}`:t(o,d,"temp",this._t(h2[o.type]))}
                  ${O2(K1,this._t("remove_setpoint"),()=>this._remove(V,d))}
                </li>`)}
        </ul>
        <button class="add" @click=${()=>this._add(V)}>
          ${S1(X1)} ${this._t("add_setpoint")}
        </button>
        <fieldset class="copy">
          <legend>${this._t("copy_to",{day:L[V]})}</legend>
          <div class="chips">
            ${r.filter(o=>o!==V).map(o=>a`<label class="chip">
                  <input
                    type="checkbox"
                    .checked=${this._copyTargets.has(o)}
                    @change=${d=>this._toggleCopy(o,d.target.checked)}
                  />
                  ${L1(this._language,"short")[o]}
                </label>`)}
            <button class="link" @click=${()=>this._selectAllCopy(V)}>${this._t("all_days")}</button>
          </div>
          <button ?disabled=${this._copyTargets.size===0} @click=${()=>this._copy(V)}>
            ${S1(q1)} ${this._t("copy")}
          </button>
        </fieldset>
      </div>
    `}_renderProblems(H,V){return a`
      <div class="message error" role="alert">
        <p>${this._t("problems")}</p>
        <ul>
          ${H.map(L=>{let r={day:V[L.day]};return"time"in L&&Number.isFinite(L.time)&&(r.time=this._time(L.time)),L.key==="out_of_range"&&(r.min=`${L.min} ${this._unit}`,r.max=`${L.max} ${this._unit}`),a`<li>${this._t(L.key,r)}</li>`})}
        </ul>
      </div>
    `}_edit(H){this._week=H,this._saved=!1,this._error=void 0}_editDay(H,V,L=!0){let r=this._week,e=[...r.days],i=V([...e[H]]);e[H]=L?G(i):i,this._edit({...r,days:e})}_openDay(H){this._day=H,this._copyTargets=new Set}_setTime(H,V,L){this._editDay(H,r=>(r[V]={...r[V],time:S2(L)},r))}_setTemperature(H,V,L,r){let e=r.trim()===""?NaN:Number(r);this._editDay(H,i=>(i[V]={...i[V],[L]:n2(e,this._unit)},i))}_remove(H,V){this._editDay(H,L=>L.filter((r,e)=>e!==V))}_add(H){let V=this._week,L=V.days[H].filter(t=>!t.continuation&&Number.isFinite(t.time)),r=L[L.length-1],e=r?Math.min(r.time+3600,23*3600):12*3600,i=r?r.type==="RANGE"?r.low:r.temp:20;this._editDay(H,t=>[...t,z(V.mode,e,Number.isFinite(i)?i:20)])}_toggleCopy(H,V){let L=new Set(this._copyTargets);V?L.add(H):L.delete(H),this._copyTargets=L}_selectAllCopy(H){this._copyTargets=new Set(Array.from({length:7},(V,L)=>L).filter(V=>V!==H))}_copy(H){this._edit(Z2(this._week,H,this._copyTargets)),this._copyTargets=new Set}_discard(){this._week=this._base,this._theirs=void 0,this._error=void 0}_loadTheirs(){this._discard()}async _save(){let H=this._week,V=this._config?.entity;if(!H||!V||!this.hass||Z1(H,this._unit).length)return;let L={schedule:V1(H)};this._message?.learning&&(L.turn_off_learning=this._turnOffLearning),this._saving=!0,this._error=void 0;try{await this.hass.callService(Z,"set_schedule",L,{entity_id:V}),this._base=H,this._theirs=void 0,this._saved=!0}catch(r){this._error=this._describe(r)}finally{this._saving=!1}}_describe(H){return H?.code==="not_a_thermostat"?this._t("error_not_a_thermostat",{entity:this._config?.entity??""}):H?.code==="not_loaded"?this._t("error_not_loaded"):H?.message||this._t("error_unknown",{message:String(H?.code??H)})}};w.properties={hass:{attribute:!1},_config:{state:!0},_message:{state:!0},_base:{state:!0},_week:{state:!0},_theirs:{state:!0},_day:{state:!0},_copyTargets:{state:!0},_turnOffLearning:{state:!0},_saving:{state:!0},_saved:{state:!0},_error:{state:!0}},w.styles=P`
    :host {
      --tc-heat: var(--state-climate-heat-color, #ff8100);
      --tc-cool: var(--state-climate-cool-color, #2b9af9);
      --tc-range: var(--state-climate-heat_cool-color, #008000);
      --tc-radius: var(--ha-card-border-radius, 12px);
      display: block;
    }
    ha-card {
      display: block;
      overflow: hidden;
      color: var(--primary-text-color);
      background: var(--ha-card-background, var(--card-background-color, #fff));
      border-radius: var(--tc-radius);
    }
    .header {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      padding: 16px 16px 0;
    }
    .title {
      margin: 0;
      font-size: var(--ha-card-header-font-size, 1.25rem);
      font-weight: 400;
      line-height: 1.4;
    }
    .content {
      padding: 8px 16px 16px;
    }
    .note {
      color: var(--secondary-text-color);
    }
    select,
    input[type="time"],
    input[type="number"] {
      font: inherit;
      color: var(--primary-text-color);
      background: var(--input-fill-color, var(--secondary-background-color, transparent));
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 6px;
      padding: 6px 8px;
      min-height: 36px;
      box-sizing: border-box;
    }
    input[type="number"] {
      width: 5.5em;
    }
    button {
      font: inherit;
      cursor: pointer;
      color: var(--primary-color);
      background: transparent;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 18px;
      padding: 6px 14px;
      min-height: 36px;
      display: inline-flex;
      align-items: center;
      gap: 4px;
    }
    button.primary {
      color: var(--text-primary-color, #fff);
      background: var(--primary-color);
      border-color: var(--primary-color);
    }
    button:disabled {
      cursor: default;
      opacity: 0.5;
    }
    button.link {
      border: none;
      padding: 4px 6px;
    }
    button svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
    }
    .icon-button {
      border: none;
      border-radius: 50%;
      padding: 8px;
      color: var(--secondary-text-color);
    }
    .week {
      display: flex;
      flex-direction: column;
      gap: 4px;
      margin: 8px 0;
    }
    .day-line {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      align-items: center;
      gap: 8px;
      width: 100%;
      padding: 2px 0;
      border: none;
      border-radius: 6px;
      color: var(--primary-text-color);
      text-align: start;
    }
    .day-line:hover,
    .day.open .day-line {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .day-name {
      font-weight: 500;
      padding-inline-start: 4px;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .line {
      position: relative;
      height: 28px;
      border-radius: 6px;
      overflow: hidden;
      background: var(--divider-color, #e0e0e0);
    }
    .segment {
      position: absolute;
      top: 0;
      bottom: 0;
      box-sizing: border-box;
      border-inline-start: 2px solid var(--card-background-color, #fff);
      padding: 0 4px;
      font-size: 0.75rem;
      line-height: 28px;
      white-space: nowrap;
      overflow: hidden;
      color: var(--primary-text-color);
    }
    .segment .label[hidden] {
      display: none;
    }
    .segment.heat {
      --tc-color: var(--tc-heat);
    }
    .segment.cool {
      --tc-color: var(--tc-cool);
    }
    .segment.range {
      --tc-color: var(--tc-range);
    }
    .segment {
      background: var(--tc-color);
      background: color-mix(
        in srgb,
        var(--tc-color) var(--tc-share, 100%),
        var(--card-background-color, #fff)
      );
    }
    .segment.carried {
      border-inline-start: none;
      font-style: italic;
    }
    .hours {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      gap: 8px;
    }
    .scale {
      position: relative;
      height: 1.2em;
      font-size: 0.7rem;
      color: var(--secondary-text-color);
    }
    .scale span {
      position: absolute;
      transform: translateX(-50%);
      white-space: nowrap;
    }
    .scale span:first-child {
      transform: none;
    }
    .scale span:last-child {
      transform: translateX(-100%);
    }
    .editor {
      margin: 4px 0 8px;
      padding: 8px 12px 12px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 8px;
    }
    .editor-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
    }
    .editor h3 {
      margin: 0;
      font-size: 1rem;
      font-weight: 500;
    }
    .entries {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .entry {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: 8px 12px;
      padding: 8px 0 8px 8px;
      border-inline-start: 4px solid var(--tc-heat);
      margin-bottom: 6px;
    }
    .entry.cool {
      border-color: var(--tc-cool);
    }
    .entry.range {
      border-color: var(--tc-range);
    }
    .entry.carried {
      border-color: var(--divider-color, #ccc);
      color: var(--secondary-text-color);
      align-items: center;
    }
    .hint {
      font-size: 0.85rem;
      font-style: italic;
    }
    .field {
      display: flex;
      flex-direction: column;
      gap: 2px;
      font-size: 0.8rem;
      color: var(--secondary-text-color);
    }
    .with-unit {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      color: var(--primary-text-color);
      font-size: 1rem;
    }
    .copy {
      margin: 12px 0 0;
      border: none;
      padding: 0;
      display: flex;
      flex-direction: column;
      gap: 8px;
      align-items: flex-start;
    }
    .copy legend {
      padding: 0;
      margin-bottom: 6px;
      color: var(--secondary-text-color);
      font-size: 0.9rem;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: 2px;
      padding: 2px 8px 2px 2px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 16px;
    }
    .message {
      border-radius: 8px;
      padding: 8px 12px;
      margin: 8px 0;
    }
    .message p {
      margin: 0 0 4px;
    }
    .message ul {
      margin: 0;
      padding-inline-start: 20px;
    }
    .message.error {
      color: var(--error-color, #db4437);
      background: rgba(var(--rgb-error-color, 219, 68, 55), 0.1);
    }
    .message.warning {
      background: rgba(var(--rgb-warning-color, 255, 166, 0), 0.15);
    }
    .message.ok {
      background: rgba(var(--rgb-success-color, 67, 160, 71), 0.12);
    }
    .message.hold {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      border-inline-start: 4px solid var(--tc-heat);
      background: rgba(var(--rgb-primary-color, 3, 169, 244), 0.08);
    }
    .message.eco {
      border-inline-start-color: var(--state-climate-eco-color, #43a047);
    }
    .message.hold p {
      margin: 0;
    }
    .check {
      display: inline-flex;
      align-items: center;
      gap: 6px;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      gap: 8px;
      margin-top: 8px;
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
  `;function f2(M){return M.type==="RANGE"?(M.low+M.high)/2:M.temp}function a5(M){let C=M.days.flat().map(f2).filter(Number.isFinite);return C.length?[Math.min(...C),Math.max(...C)]:[0,0]}function A5(M,C,H){return!Number.isFinite(M)||H<=C?100:Math.round(45+55*(M-C)/(H-C))}function g2(M,C){return u1(V1(M))===u1(V1(C))}function S1(M){return a`<svg viewBox="0 0 24 24" aria-hidden="true">${X`<path d=${M}></path>`}</svg>`}function O2(M,C,H){return customElements.get("ha-icon-button")?a`<ha-icon-button .path=${M} .label=${C} @click=${H}></ha-icon-button>`:a`<button class="icon-button" aria-label=${C} title=${C} @click=${H}>
    ${S1(M)}
  </button>`}var d5=[{name:"entity",required:!0,selector:{entity:{filter:{integration:Z,domain:"climate"}}}},{name:"title",selector:{text:{}}}],m5={entity:"editor_entity",title:"editor_title"},f=class extends l{setConfig(C){this._config=C}render(){return!this.hass||!this._config?m:a`
      <ha-form
        .hass=${this.hass}
        .data=${this._config}
        .schema=${d5}
        .computeLabel=${C=>v(this.hass?.language,m5[C.name]??"editor_entity")}
        @value-changed=${this._valueChanged}
      ></ha-form>
    `}_valueChanged(C){C.stopPropagation();let H={...this._config,...C.detail.value};H.title||delete H.title,this._config=H,this.dispatchEvent(new CustomEvent("config-changed",{detail:{config:H},bubbles:!0,composed:!0}))}};f.properties={hass:{attribute:!1},_config:{state:!0}};var p5=["colder","warmer","adjusted","away_more","away_less","schedule"];function y2(M){let[C,H,V]=M.split("-").map(Number);return new Date(Date.UTC(C,H-1,V-1)).toISOString().slice(0,10)}function h1(M,C,H=10){let V=new Map;for(let L of M){let r=L.thermostats.find(e=>e.entity_id===C)??L.thermostats[0];for(let e of r?.days??[])V.set(e.date,e)}return[...V.values()].sort((L,r)=>L.date.localeCompare(r.date)).slice(-H)}function g1(M){return p5.find(C=>C===M.main_reason)}function k2(M){let C=Math.max(0,...M.map(H=>H.heating_hours+H.cooling_hours));return Math.max(1,Math.ceil(C))}function b2(M){return Object.entries(M.runtime_hours).filter(([,C])=>C>0).sort((C,H)=>H[1]-C[1]||C[0].localeCompare(H[0]))}function _2(M){let C=Object.entries(M.changes).filter(([,H])=>H>0);return M.schedule_edits>0&&C.push(["schedule_edit",M.schedule_edits]),C.sort((H,V)=>V[1]-H[1]||H[0].localeCompare(V[0]))}var B2={colder:J1,warmer:C2,adjusted:G1,away_more:j1,away_less:Y1,schedule:Q1},B=class extends l{static getConfigElement(){return document.createElement(H1)}static getStubConfig(C){return{type:`custom:${$}`,entity:c1(C)??""}}setConfig(C){if(!C||typeof C!="object")throw new Error("Invalid configuration");if(C.entity&&!C.entity.startsWith("climate."))throw new Error("entity must be a climate entity of Thermostat Cloud");this._config=C}getCardSize(){return 5}getGridOptions(){return{columns:12,min_columns:6,rows:"auto"}}connectedCallback(){super.connectedCallback(),this._load()}shouldUpdate(C){if(C.size!==1||!C.has("hass"))return!0;let H=C.get("hass"),V=this.hass;return!H||!V||H.connection!==V.connection||H.language!==V.language}updated(C){(C.has("hass")||C.has("_config"))&&this._load()}async _report(C,H){return(await this.hass.callWS({type:"call_service",domain:Z,service:"get_energy_report",service_data:{entity_id:C,period:"month",...H?{date:H}:{}},return_response:!0})).response}async _load(){let C=this._config?.entity,H=this.hass?.connection;if(!this.isConnected||!C||!H)return;let V=this._loadedFor;if(!(V&&V.entity===C&&V.connection===H)){this._loadedFor={entity:C,connection:H},this._days=void 0,this._selected=void 0,this._error=void 0;try{let L=[await this._report(C)];if(h1(L,C).length<10&&L.unshift(await this._report(C,y2(L[0].start))),this._loadedFor?.entity!==C)return;this._days=h1(L,C)}catch(L){if(this._loadedFor?.entity!==C)return;let r=await this._refusal(L);if(this._loadedFor?.entity!==C)return;this._error=this._t("history_error",{message:r})}}}async _refusal(C){let{translation_domain:H,translation_key:V}=C??{};if(H&&V&&this.hass?.loadBackendTranslation)try{let r=(await this.hass.loadBackendTranslation("exceptions",H))(`component.${H}.exceptions.${V}.message`,C.translation_placeholders);if(r)return r}catch{}return C?.message||String(C?.code??C)}get _language(){return this.hass?.locale?.language??this.hass?.language??"en"}_t(C,H){return v(this.hass?.language,C,H)}_hours(C){return this._t("history_hours",{hours:C.toLocaleString(this._language,{maximumFractionDigits:2})})}_number(C){return C.toLocaleString(this._language,{maximumFractionDigits:1})}_date(C,H){let[V,L,r]=C.split("-").map(Number);try{return new Date(Date.UTC(V,L-1,r)).toLocaleDateString(this._language,{...H,timeZone:"UTC"})}catch{return C}}render(){let C=this._config,H=C?.entity,V=H&&this.hass?.states[H]?.attributes.friendly_name||H||"",L=C?.title||(H?this._t("history_title",{name:V}):this._t("history_card_name"));return a`
      <ha-card>
        <div class="header"><h2 class="title">${L}</h2></div>
        <div class="content">${this._renderBody(H)}</div>
      </ha-card>
    `}_renderBody(C){if(!C)return a`<p class="note">${this._t("no_entity")}</p>`;if(this._error)return a`<p class="message error" role="alert">${this._error}</p>`;let H=this._days;if(!H)return a`<p class="note">${this._t("history_loading")}</p>`;if(H.filter(r=>r.has_data).length<2)return a`<p class="note empty">${this._t("history_empty")}</p>`;let V=k2(H),L=H.find(r=>r.date===this._selected);return a`
      <div class="legend">
        <span class="key heating"></span>${this._t("history_heating")}
        <span class="key cooling"></span>${this._t("history_cooling")}
        <span class="top">${this._hours(V)}</span>
      </div>
      <div class="bars" role="list">${H.map(r=>this._renderBar(r,V))}</div>
      ${L?this._renderDetails(L):m}
    `}_renderBar(C,H){let V=g1(C),L=C.date===this._selected,r=this._t("history_bar",{date:this._date(C.date,{weekday:"long",day:"numeric",month:"long"}),heating:this._hours(C.heating_hours),cooling:this._hours(C.cooling_hours)}),e=V?this._t(`reason_${V}`):"";return a`
      <div class="day" role="listitem">
        <button
          class="bar ${L?"open":""}"
          data-date=${C.date}
          aria-expanded=${L?"true":"false"}
          aria-label=${e?`${r}. ${e}`:r}
          title=${e?`${r}. ${e}`:r}
          @click=${()=>this._selected=L?void 0:C.date}
        >
          <span class="plot">
            <span class="segment cooling" style="height:${C.cooling_hours/H*100}%"></span>
            <span class="segment heating" style="height:${C.heating_hours/H*100}%"></span>
          </span>
          <span class="reason">${V?O1(B2[V]):m}</span>
          <span class="weekday">${this._date(C.date,{weekday:"short"})}</span>
          <span class="date">${this._date(C.date,{day:"numeric"})}</span>
        </button>
      </div>
    `}_renderDetails(C){let H=g1(C),V=b2(C),L=_2(C),r=C.heating_degree_days,e=C.cooling_degree_days;return a`
      <section class="details" aria-label=${this._date(C.date,{dateStyle:"full"})}>
        <div class="details-head">
          <h3>${this._date(C.date,{weekday:"long",day:"numeric",month:"long"})}</h3>
          <button
            class="icon-button"
            aria-label=${this._t("close_day")}
            title=${this._t("close_day")}
            @click=${()=>this._selected=void 0}
          >
            ${O1(J)}
          </button>
        </div>
        <p class="why">
          ${H?a`${O1(B2[H])} ${this._t(`reason_${H}`)}`:this._t("history_usual_day")}
        </p>
        <dl>
          <dt>${this._t("history_runtime")}</dt>
          <dd>
            ${V.length?a`<ul>
                  ${V.map(([i,t])=>a`<li>${this._equipment(i)}: ${this._hours(t)}</li>`)}
                </ul>`:this._t("history_nothing_ran")}
          </dd>
          <dt>${this._t("history_degree_days")}</dt>
          <dd>
            ${r===null||e===null?this._t("history_no_weather"):this._t("history_degree_days_value",{heating:this._number(r),cooling:this._number(e)})}
          </dd>
          <dt>${this._t("history_eco_away")}</dt>
          <dd>
            ${this._t("history_eco_away_value",{eco:this._hours(C.eco_hours),away:this._hours(C.away_hours)})}
          </dd>
          <dt>${this._t("history_changes")}</dt>
          <dd>
            ${L.length?a`<ul>
                  ${L.map(([i,t])=>a`<li>${this._source(i)}: ${t}</li>`)}
                </ul>`:this._t("history_no_changes")}
          </dd>
        </dl>
      </section>
    `}_equipment(C){return this._named(`equipment_${C}`,C)}_source(C){return this._named(`source_${C}`,C)}_named(C,H){return C in _?this._t(C):H}};B.properties={hass:{attribute:!1},_config:{state:!0},_days:{state:!0},_selected:{state:!0},_error:{state:!0}},B.styles=P`
    :host {
      --tc-heat: var(--state-climate-heat-color, #ff8100);
      --tc-cool: var(--state-climate-cool-color, #2b9af9);
      display: block;
    }
    ha-card {
      display: block;
      overflow: hidden;
      color: var(--primary-text-color);
      background: var(--ha-card-background, var(--card-background-color, #fff));
      border-radius: var(--ha-card-border-radius, 12px);
    }
    .header {
      padding: 16px 16px 0;
    }
    .title {
      margin: 0;
      font-size: var(--ha-card-header-font-size, 1.25rem);
      font-weight: 400;
      line-height: 1.4;
    }
    .content {
      padding: 8px 16px 16px;
    }
    .note {
      color: var(--secondary-text-color);
    }
    /* The text in the theme's text colour: the error red on its tint is under 4.5:1. */
    .message.error {
      margin: 8px 0;
      border-radius: 8px;
      padding: 8px 12px;
      color: var(--primary-text-color);
      background: rgba(var(--rgb-error-color, 219, 68, 55), 0.1);
      border-inline-start: 4px solid var(--error-color, #db4437);
    }
    .legend {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px 6px;
      font-size: 0.85rem;
      color: var(--primary-text-color);
    }
    .key {
      display: inline-block;
      width: 12px;
      height: 12px;
      border-radius: 3px;
      margin-inline-start: 6px;
    }
    .key:first-child {
      margin-inline-start: 0;
    }
    .key.heating,
    .segment.heating {
      background: var(--tc-heat);
    }
    .key.cooling,
    .segment.cooling {
      background: var(--tc-cool);
    }
    .top {
      margin-inline-start: auto;
      color: var(--secondary-text-color);
    }
    .bars {
      display: grid;
      grid-template-columns: repeat(${10}, minmax(0, 1fr));
      gap: 4px;
      margin-top: 4px;
      border-top: 1px dashed var(--divider-color, #ccc);
    }
    .bar {
      display: flex;
      flex-direction: column;
      align-items: center;
      width: 100%;
      padding: 4px 0;
      font: inherit;
      color: var(--primary-text-color);
      background: transparent;
      border: none;
      border-radius: 8px;
      cursor: pointer;
    }
    .bar:hover,
    .bar.open {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .bar:focus-visible {
      outline: 2px solid var(--primary-color);
    }
    .plot {
      display: flex;
      flex-direction: column;
      justify-content: flex-end;
      width: 70%;
      max-width: 32px;
      height: 140px;
      border-bottom: 1px solid var(--divider-color, #ccc);
    }
    .segment {
      display: block;
      width: 100%;
    }
    .reason {
      height: 20px;
      margin-top: 4px;
      color: var(--secondary-text-color);
    }
    .reason svg,
    .why svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
      vertical-align: middle;
    }
    .weekday,
    .date {
      font-size: 0.75rem;
      line-height: 1.3;
      white-space: nowrap;
    }
    .weekday {
      color: var(--secondary-text-color);
    }
    .bar:hover .weekday,
    .bar.open .weekday {
      color: var(--primary-text-color);
    }
    .details {
      margin-top: 8px;
      padding: 8px 12px 12px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 8px;
    }
    .details-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
    }
    .details h3 {
      margin: 0;
      font-size: 1rem;
      font-weight: 500;
    }
    .icon-button {
      display: inline-flex;
      padding: 8px;
      color: var(--secondary-text-color);
      background: transparent;
      border: none;
      border-radius: 50%;
      cursor: pointer;
    }
    .why {
      margin: 4px 0 8px;
    }
    dl {
      display: grid;
      grid-template-columns: minmax(6em, max-content) 1fr;
      gap: 6px 12px;
      margin: 0;
    }
    dt {
      color: var(--secondary-text-color);
    }
    dd {
      margin: 0;
    }
    dd ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    @media (max-width: 420px) {
      dl {
        grid-template-columns: 1fr;
        gap: 2px;
      }
      dd {
        margin-bottom: 6px;
      }
    }
  `;var M1=class extends f{};function O1(M){return a`<svg viewBox="0 0 24 24" aria-hidden="true">${X`<path d=${M}></path>`}</svg>`}function T2(){if(customElements.get(b))return;customElements.define(b,w),customElements.define(C1,f),customElements.define($,B),customElements.define(H1,M1);let M=document.documentElement.lang||navigator.language;window.customCards=window.customCards??[],window.customCards.push({type:b,name:v(M,"card_name"),description:v(M,"card_description"),preview:!0,documentationURL:"https://github.com/thermostat-cloud/thermostat-cloud#the-thermostat-in-home-assistant"}),window.customCards.push({type:$,name:v(M,"history_card_name"),description:v(M,"history_card_description"),preview:!0,documentationURL:"https://github.com/thermostat-cloud/thermostat-cloud#energy-history"})}customElements.get("home-assistant")?T2():customElements.whenDefined("home-assistant").then(T2,()=>{});
