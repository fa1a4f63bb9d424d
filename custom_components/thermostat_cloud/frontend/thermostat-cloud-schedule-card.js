/*! Thermostat Cloud schedule card. Built by frontend/build.mjs from sources sha256:a7dcd966704af7980bdcac608902b19f60618631bcb05242e5f2965b1b35a634 (MIT; includes Lit, BSD-3-Clause, and Material Design Icons, Apache-2.0) */
var U=globalThis,G=U.ShadowRoot&&(U.ShadyCSS===void 0||U.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,X=Symbol(),l1=new WeakMap,B=class{constructor(H,C,V){if(this._$cssResult$=!0,V!==X)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=H,this.t=C}get styleSheet(){let H=this.o,C=this.t;if(G&&H===void 0){let V=C!==void 0&&C.length===1;V&&(H=l1.get(C)),H===void 0&&((this.o=H=new CSSStyleSheet).replaceSync(this.cssText),V&&l1.set(C,H))}return H}toString(){return this.cssText}},Z1=M=>new B(typeof M=="string"?M:M+"",void 0,X),J=(M,...H)=>{let C=M.length===1?M[0]:H.reduce((V,L,r)=>V+(e=>{if(e._$cssResult$===!0)return e.cssText;if(typeof e=="number")return e;throw Error("Value passed to 'css' function must be a 'css' function result: "+e+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(L)+M[r+1],M[0]);return new B(C,M,X)},S1=(M,H)=>{if(G)M.adoptedStyleSheets=H.map(C=>C instanceof CSSStyleSheet?C:C.styleSheet);else for(let C of H){let V=document.createElement("style"),L=U.litNonce;L!==void 0&&V.setAttribute("nonce",L),V.textContent=C.cssText,M.appendChild(V)}},C1=G?M=>M:M=>M instanceof CSSStyleSheet?(H=>{let C="";for(let V of H.cssRules)C+=V.cssText;return Z1(C)})(M):M;var{is:l2,defineProperty:Z2,getOwnPropertyDescriptor:S2,getOwnPropertyNames:u2,getOwnPropertySymbols:s2,getPrototypeOf:c2}=Object,Q=globalThis,u1=Q.trustedTypes,h2=u1?u1.emptyScript:"",O2=Q.reactiveElementPolyfillSupport,w=(M,H)=>M,H1={toAttribute(M,H){switch(H){case Boolean:M=M?h2:null;break;case Object:case Array:M=M==null?M:JSON.stringify(M)}return M},fromAttribute(M,H){let C=M;switch(H){case Boolean:C=M!==null;break;case Number:C=M===null?null:Number(M);break;case Object:case Array:try{C=JSON.parse(M)}catch{C=null}}return C}},c1=(M,H)=>!l2(M,H),s1={attribute:!0,type:String,converter:H1,reflect:!1,useDefault:!1,hasChanged:c1};Symbol.metadata??=Symbol("metadata"),Q.litPropertyMetadata??=new WeakMap;var x=class extends HTMLElement{static addInitializer(H){this._$Ei(),(this.l??=[]).push(H)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(H,C=s1){if(C.state&&(C.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(H)&&((C=Object.create(C)).wrapped=!0),this.elementProperties.set(H,C),!C.noAccessor){let V=Symbol(),L=this.getPropertyDescriptor(H,V,C);L!==void 0&&Z2(this.prototype,H,L)}}static getPropertyDescriptor(H,C,V){let{get:L,set:r}=S2(this.prototype,H)??{get(){return this[C]},set(e){this[C]=e}};return{get:L,set(e){let i=L?.call(this);r?.call(this,e),this.requestUpdate(H,i,V)},configurable:!0,enumerable:!0}}static getPropertyOptions(H){return this.elementProperties.get(H)??s1}static _$Ei(){if(this.hasOwnProperty(w("elementProperties")))return;let H=c2(this);H.finalize(),H.l!==void 0&&(this.l=[...H.l]),this.elementProperties=new Map(H.elementProperties)}static finalize(){if(this.hasOwnProperty(w("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(w("properties"))){let C=this.properties,V=[...u2(C),...s2(C)];for(let L of V)this.createProperty(L,C[L])}let H=this[Symbol.metadata];if(H!==null){let C=litPropertyMetadata.get(H);if(C!==void 0)for(let[V,L]of C)this.elementProperties.set(V,L)}this._$Eh=new Map;for(let[C,V]of this.elementProperties){let L=this._$Eu(C,V);L!==void 0&&this._$Eh.set(L,C)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(H){let C=[];if(Array.isArray(H)){let V=new Set(H.flat(1/0).reverse());for(let L of V)C.unshift(C1(L))}else H!==void 0&&C.push(C1(H));return C}static _$Eu(H,C){let V=C.attribute;return V===!1?void 0:typeof V=="string"?V:typeof H=="string"?H.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(H=>this.enableUpdating=H),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(H=>H(this))}addController(H){(this._$EO??=new Set).add(H),this.renderRoot!==void 0&&this.isConnected&&H.hostConnected?.()}removeController(H){this._$EO?.delete(H)}_$E_(){let H=new Map,C=this.constructor.elementProperties;for(let V of C.keys())this.hasOwnProperty(V)&&(H.set(V,this[V]),delete this[V]);H.size>0&&(this._$Ep=H)}createRenderRoot(){let H=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return S1(H,this.constructor.elementStyles),H}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(H=>H.hostConnected?.())}enableUpdating(H){}disconnectedCallback(){this._$EO?.forEach(H=>H.hostDisconnected?.())}attributeChangedCallback(H,C,V){this._$AK(H,V)}_$ET(H,C){let V=this.constructor.elementProperties.get(H),L=this.constructor._$Eu(H,V);if(L!==void 0&&V.reflect===!0){let r=(V.converter?.toAttribute!==void 0?V.converter:H1).toAttribute(C,V.type);this._$Em=H,r==null?this.removeAttribute(L):this.setAttribute(L,r),this._$Em=null}}_$AK(H,C){let V=this.constructor,L=V._$Eh.get(H);if(L!==void 0&&this._$Em!==L){let r=V.getPropertyOptions(L),e=typeof r.converter=="function"?{fromAttribute:r.converter}:r.converter?.fromAttribute!==void 0?r.converter:H1;this._$Em=L;let i=e.fromAttribute(C,r.type);this[L]=i??this._$Ej?.get(L)??i,this._$Em=null}}requestUpdate(H,C,V,L=!1,r){if(H!==void 0){let e=this.constructor;if(L===!1&&(r=this[H]),V??=e.getPropertyOptions(H),!((V.hasChanged??c1)(r,C)||V.useDefault&&V.reflect&&r===this._$Ej?.get(H)&&!this.hasAttribute(e._$Eu(H,V))))return;this.C(H,C,V)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(H,C,{useDefault:V,reflect:L,wrapped:r},e){V&&!(this._$Ej??=new Map).has(H)&&(this._$Ej.set(H,e??C??this[H]),r!==!0||e!==void 0)||(this._$AL.has(H)||(this.hasUpdated||V||(C=void 0),this._$AL.set(H,C)),L===!0&&this._$Em!==H&&(this._$Eq??=new Set).add(H))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(C){Promise.reject(C)}let H=this.scheduleUpdate();return H!=null&&await H,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[L,r]of this._$Ep)this[L]=r;this._$Ep=void 0}let V=this.constructor.elementProperties;if(V.size>0)for(let[L,r]of V){let{wrapped:e}=r,i=this[L];e!==!0||this._$AL.has(L)||i===void 0||this.C(L,void 0,r,i)}}let H=!1,C=this._$AL;try{H=this.shouldUpdate(C),H?(this.willUpdate(C),this._$EO?.forEach(V=>V.hostUpdate?.()),this.update(C)):this._$EM()}catch(V){throw H=!1,this._$EM(),V}H&&this._$AE(C)}willUpdate(H){}_$AE(H){this._$EO?.forEach(C=>C.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(H)),this.updated(H)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(H){return!0}update(H){this._$Eq&&=this._$Eq.forEach(C=>this._$ET(C,this[C])),this._$EM()}updated(H){}firstUpdated(H){}};x.elementStyles=[],x.shadowRootOptions={mode:"open"},x[w("elementProperties")]=new Map,x[w("finalized")]=new Map,O2?.({ReactiveElement:x}),(Q.reactiveElementVersions??=[]).push("2.1.2");var i1=globalThis,h1=M=>M,z=i1.trustedTypes,O1=z?z.createPolicy("lit-html",{createHTML:M=>M}):void 0,B1="$lit$",Z=`lit$${Math.random().toFixed(9).slice(2)}$`,w1="?"+Z,g2=`<${w1}>`,s=document,T=()=>s.createComment(""),F=M=>M===null||typeof M!="object"&&typeof M!="function",A1=Array.isArray,f2=M=>A1(M)||typeof M?.[Symbol.iterator]=="function",V1=`[ 	
\f\r]`,P=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,g1=/-->/g,f1=/>/g,S=RegExp(`>|${V1}(?:([^\\s"'>=/]+)(${V1}*=${V1}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),k1=/'/g,y1=/"/g,P1=/^(?:script|style|textarea|title)$/i,o1=M=>(H,...C)=>({_$litType$:M,strings:H,values:C}),d=o1(1),T1=o1(2),J2=o1(3),c=Symbol.for("lit-noChange"),m=Symbol.for("lit-nothing"),b1=new WeakMap,u=s.createTreeWalker(s,129);function F1(M,H){if(!A1(M)||!M.hasOwnProperty("raw"))throw Error("invalid template strings array");return O1!==void 0?O1.createHTML(H):H}var k2=(M,H)=>{let C=M.length-1,V=[],L,r=H===2?"<svg>":H===3?"<math>":"",e=P;for(let i=0;i<C;i++){let t=M[i],A,a,o=-1,p=0;for(;p<t.length&&(e.lastIndex=p,a=e.exec(t),a!==null);)p=e.lastIndex,e===P?a[1]==="!--"?e=g1:a[1]!==void 0?e=f1:a[2]!==void 0?(P1.test(a[2])&&(L=RegExp("</"+a[2],"g")),e=S):a[3]!==void 0&&(e=S):e===S?a[0]===">"?(e=L??P,o=-1):a[1]===void 0?o=-2:(o=e.lastIndex-a[2].length,A=a[1],e=a[3]===void 0?S:a[3]==='"'?y1:k1):e===y1||e===k1?e=S:e===g1||e===f1?e=P:(e=S,L=void 0);let n=e===S&&M[i+1].startsWith("/>")?" ":"";r+=e===P?t+g2:o>=0?(V.push(A),t.slice(0,o)+B1+t.slice(o)+Z+n):t+Z+(o===-2?i:n)}return[F1(M,r+(M[C]||"<?>")+(H===2?"</svg>":H===3?"</math>":"")),V]},R=class M{constructor({strings:H,_$litType$:C},V){let L;this.parts=[];let r=0,e=0,i=H.length-1,t=this.parts,[A,a]=k2(H,C);if(this.el=M.createElement(A,V),u.currentNode=this.el.content,C===2||C===3){let o=this.el.content.firstChild;o.replaceWith(...o.childNodes)}for(;(L=u.nextNode())!==null&&t.length<i;){if(L.nodeType===1){if(L.hasAttributes())for(let o of L.getAttributeNames())if(o.endsWith(B1)){let p=a[e++],n=L.getAttribute(o).split(Z),l=/([.?@])?(.*)/.exec(p);t.push({type:1,index:r,name:l[2],strings:n,ctor:l[1]==="."?M1:l[1]==="?"?r1:l[1]==="@"?e1:k}),L.removeAttribute(o)}else o.startsWith(Z)&&(t.push({type:6,index:r}),L.removeAttribute(o));if(P1.test(L.tagName)){let o=L.textContent.split(Z),p=o.length-1;if(p>0){L.textContent=z?z.emptyScript:"";for(let n=0;n<p;n++)L.append(o[n],T()),u.nextNode(),t.push({type:2,index:++r});L.append(o[p],T())}}}else if(L.nodeType===8)if(L.data===w1)t.push({type:2,index:r});else{let o=-1;for(;(o=L.data.indexOf(Z,o+1))!==-1;)t.push({type:7,index:r}),o+=Z.length-1}r++}}static createElement(H,C){let V=s.createElement("template");return V.innerHTML=H,V}};function f(M,H,C=M,V){if(H===c)return H;let L=V!==void 0?C._$Co?.[V]:C._$Cl,r=F(H)?void 0:H._$litDirective$;return L?.constructor!==r&&(L?._$AO?.(!1),r===void 0?L=void 0:(L=new r(M),L._$AT(M,C,V)),V!==void 0?(C._$Co??=[])[V]=L:C._$Cl=L),L!==void 0&&(H=f(M,L._$AS(M,H.values),L,V)),H}var L1=class{constructor(H,C){this._$AV=[],this._$AN=void 0,this._$AD=H,this._$AM=C}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(H){let{el:{content:C},parts:V}=this._$AD,L=(H?.creationScope??s).importNode(C,!0);u.currentNode=L;let r=u.nextNode(),e=0,i=0,t=V[0];for(;t!==void 0;){if(e===t.index){let A;t.type===2?A=new _(r,r.nextSibling,this,H):t.type===1?A=new t.ctor(r,t.name,t.strings,this,H):t.type===6&&(A=new t1(r,this,H)),this._$AV.push(A),t=V[++i]}e!==t?.index&&(r=u.nextNode(),e++)}return u.currentNode=s,L}p(H){let C=0;for(let V of this._$AV)V!==void 0&&(V.strings!==void 0?(V._$AI(H,V,C),C+=V.strings.length-2):V._$AI(H[C])),C++}},_=class M{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(H,C,V,L){this.type=2,this._$AH=m,this._$AN=void 0,this._$AA=H,this._$AB=C,this._$AM=V,this.options=L,this._$Cv=L?.isConnected??!0}get parentNode(){let H=this._$AA.parentNode,C=this._$AM;return C!==void 0&&H?.nodeType===11&&(H=C.parentNode),H}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(H,C=this){H=f(this,H,C),F(H)?H===m||H==null||H===""?(this._$AH!==m&&this._$AR(),this._$AH=m):H!==this._$AH&&H!==c&&this._(H):H._$litType$!==void 0?this.$(H):H.nodeType!==void 0?this.T(H):f2(H)?this.k(H):this._(H)}O(H){return this._$AA.parentNode.insertBefore(H,this._$AB)}T(H){this._$AH!==H&&(this._$AR(),this._$AH=this.O(H))}_(H){this._$AH!==m&&F(this._$AH)?this._$AA.nextSibling.data=H:this.T(s.createTextNode(H)),this._$AH=H}$(H){let{values:C,_$litType$:V}=H,L=typeof V=="number"?this._$AC(H):(V.el===void 0&&(V.el=R.createElement(F1(V.h,V.h[0]),this.options)),V);if(this._$AH?._$AD===L)this._$AH.p(C);else{let r=new L1(L,this),e=r.u(this.options);r.p(C),this.T(e),this._$AH=r}}_$AC(H){let C=b1.get(H.strings);return C===void 0&&b1.set(H.strings,C=new R(H)),C}k(H){A1(this._$AH)||(this._$AH=[],this._$AR());let C=this._$AH,V,L=0;for(let r of H)L===C.length?C.push(V=new M(this.O(T()),this.O(T()),this,this.options)):V=C[L],V._$AI(r),L++;L<C.length&&(this._$AR(V&&V._$AB.nextSibling,L),C.length=L)}_$AR(H=this._$AA.nextSibling,C){for(this._$AP?.(!1,!0,C);H!==this._$AB;){let V=h1(H).nextSibling;h1(H).remove(),H=V}}setConnected(H){this._$AM===void 0&&(this._$Cv=H,this._$AP?.(H))}},k=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(H,C,V,L,r){this.type=1,this._$AH=m,this._$AN=void 0,this.element=H,this.name=C,this._$AM=L,this.options=r,V.length>2||V[0]!==""||V[1]!==""?(this._$AH=Array(V.length-1).fill(new String),this.strings=V):this._$AH=m}_$AI(H,C=this,V,L){let r=this.strings,e=!1;if(r===void 0)H=f(this,H,C,0),e=!F(H)||H!==this._$AH&&H!==c,e&&(this._$AH=H);else{let i=H,t,A;for(H=r[0],t=0;t<r.length-1;t++)A=f(this,i[V+t],C,t),A===c&&(A=this._$AH[t]),e||=!F(A)||A!==this._$AH[t],A===m?H=m:H!==m&&(H+=(A??"")+r[t+1]),this._$AH[t]=A}e&&!L&&this.j(H)}j(H){H===m?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,H??"")}},M1=class extends k{constructor(){super(...arguments),this.type=3}j(H){this.element[this.name]=H===m?void 0:H}},r1=class extends k{constructor(){super(...arguments),this.type=4}j(H){this.element.toggleAttribute(this.name,!!H&&H!==m)}},e1=class extends k{constructor(H,C,V,L,r){super(H,C,V,L,r),this.type=5}_$AI(H,C=this){if((H=f(this,H,C,0)??m)===c)return;let V=this._$AH,L=H===m&&V!==m||H.capture!==V.capture||H.once!==V.once||H.passive!==V.passive,r=H!==m&&(V===m||L);L&&this.element.removeEventListener(this.name,this,V),r&&this.element.addEventListener(this.name,this,H),this._$AH=H}handleEvent(H){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,H):this._$AH.handleEvent(H)}},t1=class{constructor(H,C,V){this.element=H,this.type=6,this._$AN=void 0,this._$AM=C,this.options=V}get _$AU(){return this._$AM._$AU}_$AI(H){f(this,H)}};var y2=i1.litHtmlPolyfillSupport;y2?.(R,_),(i1.litHtmlVersions??=[]).push("3.3.3");var R1=(M,H,C)=>{let V=C?.renderBefore??H,L=V._$litPart$;if(L===void 0){let r=C?.renderBefore??null;V._$litPart$=L=new _(H.insertBefore(T(),r),r,void 0,C??{})}return L._$AI(M),L};var a1=globalThis,v=class extends x{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let H=super.createRenderRoot();return this.renderOptions.renderBefore??=H.firstChild,H}update(H){let C=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(H),this._$Do=R1(C,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return c}};v._$litElement$=!0,v.finalized=!0,a1.litElementHydrateSupport?.({LitElement:v});var b2=a1.litElementPolyfillSupport;b2?.({LitElement:v});(a1.litElementVersions??=[]).push("4.2.2");var _1="M19,6.41L17.59,5L12,10.59L6.41,5L5,6.41L10.59,12L5,17.59L6.41,19L12,13.41L17.59,19L19,17.59L13.41,12L19,6.41Z";var E1="M19,21H8V7H19M19,5H8A2,2 0 0,0 6,7V21A2,2 0 0,0 8,23H19A2,2 0 0,0 21,21V7A2,2 0 0,0 19,5M16,1H4A2,2 0 0,0 2,3V17H4V3H16V1Z";var D1="M19,4H15.5L14.5,3H9.5L8.5,4H5V6H19M6,19A2,2 0 0,0 8,21H16A2,2 0 0,0 18,19V7H6V19Z";var N1="M19,13H13V19H11V13H5V11H11V5H13V11H19V13Z";var h="thermostat_cloud",y="thermostat-cloud-schedule-card",K="thermostat-cloud-schedule-card-editor",W1=`${h}/schedule/subscribe`;var B2=[0,0,0],w2=[1,1,1];function G1(M){let H=/^color\(srgb\s+([\d.e+-]+)\s+([\d.e+-]+)\s+([\d.e+-]+)/.exec(M.trim());if(H)return $1([Number(H[1]),Number(H[2]),Number(H[3])]);let C=/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(M.trim());if(C)return $1([Number(C[1])/255,Number(C[2])/255,Number(C[3])/255])}function $1(M){if(M.every(Number.isFinite))return M.map(H=>Math.min(1,Math.max(0,H)))}function I1([M,H,C]){let V=L=>L<=.04045?L/12.92:((L+.055)/1.055)**2.4;return .2126*V(M)+.7152*V(H)+.0722*V(C)}function U1(M,H){let[C,V]=[I1(M),I1(H)].sort((L,r)=>r-L);return(C+.05)/(V+.05)}function Q1(M){return U1(M,B2)>=U1(M,w2)?"#000":"#fff"}var z1={card_name:"Thermostat-Zeitplan",card_description:"Der Wochenplan eines Thermostat-Cloud-Thermostats: Schaltpunkte ansehen und ändern.",title:"Zeitplan {name}",heat:"Heizen",cool:"Kühlen",range:"Heizen/Kühlen",mode:"Modus des Zeitplans",no_entity:"Wähle in den Einstellungen der Karte ein Thermostat.",loading:"Zeitplan wird geladen…",no_schedule:"Das Thermostat hat noch keinen Zeitplan gemeldet.",create_schedule:"Zeitplan anlegen",time:"Uhrzeit",temperature:"Temperatur",low:"Min.",high:"Max.",carried_over:"vom Vortag übernommen",add_setpoint:"Schaltpunkt hinzufügen",remove_setpoint:"Schaltpunkt entfernen",copy_to:"{day} kopieren nach",copy:"Kopieren",all_days:"Alle Tage",save:"Speichern",discard:"Änderungen verwerfen",saving:"Wird gespeichert…",saved:"Gespeichert. Das Thermostat erhält den Zeitplan, sobald es verbunden ist.",edit_day:"{day} bearbeiten",close_day:"Schließen",learning_on:"Lernen ist an: Das Thermostat schreibt seinen Zeitplan aus den von Hand eingestellten Temperaturen um, ein hier gespeicherter Zeitplan ändert sich also.",turn_off_learning:"Lernen beim Speichern ausschalten",changed_on_thermostat:"Das Thermostat hat seinen Zeitplan geändert, während du ihn bearbeitet hast (Lernen, Drehring oder eine andere App).",load_theirs:"Zeitplan des Thermostats anzeigen",problems:"Vor dem Speichern beheben:",empty_day:"{day} hat keine Schaltpunkte: Füge einen hinzu oder kopiere einen anderen Tag hierher.",same_time:"{day} {time}: zwei Schaltpunkte zur selben Zeit.",out_of_range:"{day} {time}: Temperaturen müssen zwischen {min} und {max} liegen.",range_order:"{day} {time}: Die untere Temperatur muss unter der oberen liegen.",bad_time:"{day}: Ein Schaltpunkt hat keine gültige Uhrzeit.",error_not_a_thermostat:"{entity} ist kein Thermostat-Cloud-Thermostat.",error_not_loaded:"Thermostat Cloud läuft nicht. Prüfe die Integration.",error_unknown:"Etwas ist schiefgegangen: {message}",editor_entity:"Thermostat",editor_title:"Titel (optional)",hold:"Gehalten auf {temperature} bis {until}, danach wieder nach Zeitplan.",resume_schedule:"Zeitplan fortsetzen",away:"Abwesend: Statt des Zeitplans hält das Thermostat seine Eco-Temperaturen, {low} bis {high}.",eco:"Eco: Statt des Zeitplans hält das Thermostat seine Eco-Temperaturen, {low} bis {high}."};var j={card_name:"Thermostat schedule",card_description:"The weekly schedule of a Thermostat Cloud thermostat: see and edit its setpoints.",title:"{name} schedule",heat:"Heat",cool:"Cool",range:"Heat/cool",mode:"Schedule mode",no_entity:"Choose a thermostat in the card's settings.",loading:"Loading the schedule…",no_schedule:"The thermostat has not reported a schedule yet.",create_schedule:"Start a schedule",time:"Time",temperature:"Temperature",low:"Low",high:"High",carried_over:"carried over from the day before",add_setpoint:"Add setpoint",remove_setpoint:"Remove setpoint",copy_to:"Copy {day} to",copy:"Copy",all_days:"All days",save:"Save",discard:"Discard changes",saving:"Saving…",saved:"Saved. The thermostat gets the schedule as soon as it is connected.",edit_day:"Edit {day}",close_day:"Close",learning_on:"Learning is on: the thermostat rewrites its schedule as it learns from the temperatures set by hand, so a schedule saved here will drift.",turn_off_learning:"Turn learning off when saving",changed_on_thermostat:"The thermostat changed its schedule while you were editing (learning, the ring or another app).",load_theirs:"Show the thermostat's schedule",problems:"Fix these before saving:",empty_day:"{day} has no setpoints: add one or copy another day onto it.",same_time:"{day} {time}: two setpoints at the same time.",out_of_range:"{day} {time}: temperatures must be {min} to {max}.",range_order:"{day} {time}: the low temperature must be below the high one.",bad_time:"{day}: a setpoint has no valid time.",error_not_a_thermostat:"{entity} is not a Thermostat Cloud thermostat.",error_not_loaded:"Thermostat Cloud is not running. Check the integration.",error_unknown:"Something went wrong: {message}",editor_entity:"Thermostat",editor_title:"Title (optional)",hold:"Held at {temperature} until {until}, then back to the schedule.",resume_schedule:"Resume schedule",away:"Away: instead of the schedule, the thermostat keeps its eco temperatures, {low} to {high}.",eco:"Eco: instead of the schedule, the thermostat keeps its eco temperatures, {low} to {high}."};var K1={card_name:"Programación del termostato",card_description:"La programación semanal de un termostato de Thermostat Cloud: consulta y edita sus consignas.",title:"Programación de {name}",heat:"Calor",cool:"Frío",range:"Calor/Frío",mode:"Modo de la programación",no_entity:"Elige un termostato en la configuración de la tarjeta.",loading:"Cargando la programación…",no_schedule:"El termostato aún no ha enviado ninguna programación.",create_schedule:"Crear una programación",time:"Hora",temperature:"Temperatura",low:"Mín.",high:"Máx.",carried_over:"viene del día anterior",add_setpoint:"Añadir consigna",remove_setpoint:"Eliminar consigna",copy_to:"Copiar {day} a",copy:"Copiar",all_days:"Todos los días",save:"Guardar",discard:"Descartar cambios",saving:"Guardando…",saved:"Guardado. El termostato recibirá la programación en cuanto esté conectado.",edit_day:"Editar {day}",close_day:"Cerrar",learning_on:"El aprendizaje está activado: el termostato reescribe su programación a partir de las temperaturas que ajustas a mano, así que una programación guardada aquí irá cambiando.",turn_off_learning:"Desactivar el aprendizaje al guardar",changed_on_thermostat:"El termostato ha cambiado su programación mientras la editabas (aprendizaje, el anillo u otra aplicación).",load_theirs:"Mostrar la programación del termostato",problems:"Corrige esto antes de guardar:",empty_day:"El {day} no tiene consignas: añade una o copia otro día en él.",same_time:"{day} {time}: dos consignas a la misma hora.",out_of_range:"{day} {time}: las temperaturas deben estar entre {min} y {max}.",range_order:"{day} {time}: la temperatura mínima debe ser inferior a la máxima.",bad_time:"{day}: una consigna no tiene una hora válida.",error_not_a_thermostat:"{entity} no es un termostato de Thermostat Cloud.",error_not_loaded:"Thermostat Cloud no está en funcionamiento. Revisa la integración.",error_unknown:"Algo ha salido mal: {message}",editor_entity:"Termostato",editor_title:"Título (opcional)",hold:"Retenido en {temperature} hasta {until}; después vuelve a la programación.",resume_schedule:"Reanudar la programación",away:"Ausente: en lugar de la programación, el termostato mantiene sus temperaturas eco, de {low} a {high}.",eco:"Eco: en lugar de la programación, el termostato mantiene sus temperaturas eco, de {low} a {high}."};var j1={card_name:"Planification du thermostat",card_description:"La planification hebdomadaire d'un thermostat Thermostat Cloud : consultez et modifiez ses consignes.",title:"Planification de {name}",heat:"Chauffage",cool:"Climatisation",range:"Chauffage/Climatisation",mode:"Mode de la planification",no_entity:"Choisissez un thermostat dans les paramètres de la carte.",loading:"Chargement de la planification…",no_schedule:"Le thermostat n'a pas encore transmis de planification.",create_schedule:"Créer une planification",time:"Heure",temperature:"Température",low:"Min.",high:"Max.",carried_over:"reprise de la veille",add_setpoint:"Ajouter une consigne",remove_setpoint:"Supprimer la consigne",copy_to:"Copier {day} vers",copy:"Copier",all_days:"Tous les jours",save:"Enregistrer",discard:"Annuler les modifications",saving:"Enregistrement…",saved:"Enregistré. Le thermostat reçoit la planification dès qu'il est connecté.",edit_day:"Modifier {day}",close_day:"Fermer",learning_on:"L'apprentissage est activé : le thermostat réécrit sa planification d'après les températures réglées à la main, une planification enregistrée ici va donc changer.",turn_off_learning:"Désactiver l'apprentissage à l'enregistrement",changed_on_thermostat:"Le thermostat a modifié sa planification pendant que vous la modifiiez (apprentissage, bague ou une autre application).",load_theirs:"Afficher la planification du thermostat",problems:"À corriger avant d'enregistrer :",empty_day:"Aucune consigne le {day} : ajoutez-en une ou copiez-y un autre jour.",same_time:"{day} {time} : deux consignes à la même heure.",out_of_range:"{day} {time} : les températures doivent être comprises entre {min} et {max}.",range_order:"{day} {time} : la température basse doit être inférieure à la haute.",bad_time:"{day} : une consigne n'a pas d'heure valide.",error_not_a_thermostat:"{entity} n'est pas un thermostat Thermostat Cloud.",error_not_loaded:"Thermostat Cloud ne fonctionne pas. Vérifiez l'intégration.",error_unknown:"Une erreur s'est produite : {message}",editor_entity:"Thermostat",editor_title:"Titre (facultatif)",hold:"Maintenu à {temperature} jusqu'à {until}, puis retour à la planification.",resume_schedule:"Reprendre la planification",away:"Absent : au lieu de la planification, le thermostat maintient ses températures éco, de {low} à {high}.",eco:"Éco : au lieu de la planification, le thermostat maintient ses températures éco, de {low} à {high}."};var q1={card_name:"Programmazione del termostato",card_description:"La programmazione settimanale di un termostato Thermostat Cloud: visualizza e modifica i suoi setpoint.",title:"Programmazione di {name}",heat:"Riscaldamento",cool:"Freddo",range:"Caldo/Freddo",mode:"Modalità della programmazione",no_entity:"Scegli un termostato nelle impostazioni della scheda.",loading:"Caricamento della programmazione…",no_schedule:"Il termostato non ha ancora comunicato una programmazione.",create_schedule:"Crea una programmazione",time:"Ora",temperature:"Temperatura",low:"Min.",high:"Max.",carried_over:"ripreso dal giorno precedente",add_setpoint:"Aggiungi setpoint",remove_setpoint:"Rimuovi setpoint",copy_to:"Copia {day} su",copy:"Copia",all_days:"Tutti i giorni",save:"Salva",discard:"Annulla le modifiche",saving:"Salvataggio…",saved:"Salvato. Il termostato riceverà la programmazione appena sarà connesso.",edit_day:"Modifica {day}",close_day:"Chiudi",learning_on:"L'apprendimento è attivo: il termostato riscrive la sua programmazione in base alle temperature impostate a mano, quindi una programmazione salvata qui cambierà.",turn_off_learning:"Disattiva l'apprendimento al salvataggio",changed_on_thermostat:"Il termostato ha cambiato la sua programmazione mentre la stavi modificando (apprendimento, la ghiera o un'altra app).",load_theirs:"Mostra la programmazione del termostato",problems:"Correggi prima di salvare:",empty_day:"Nessun setpoint per {day}: aggiungine uno o copia qui un altro giorno.",same_time:"{day} {time}: due setpoint alla stessa ora.",out_of_range:"{day} {time}: le temperature devono essere tra {min} e {max}.",range_order:"{day} {time}: la temperatura minima deve essere inferiore alla massima.",bad_time:"{day}: un setpoint non ha un orario valido.",error_not_a_thermostat:"{entity} non è un termostato Thermostat Cloud.",error_not_loaded:"Thermostat Cloud non è in esecuzione. Controlla l'integrazione.",error_unknown:"Qualcosa è andato storto: {message}",editor_entity:"Termostato",editor_title:"Titolo (facoltativo)",hold:"Mantenuto a {temperature} fino a {until}, poi di nuovo secondo la programmazione.",resume_schedule:"Riprendi la programmazione",away:"Fuori casa: invece della programmazione, il termostato mantiene le sue temperature eco, da {low} a {high}.",eco:"Eco: invece della programmazione, il termostato mantiene le sue temperature eco, da {low} a {high}."};var Y1={card_name:"Thermostaatschema",card_description:"Het weekschema van een Thermostat Cloud-thermostaat: bekijk en wijzig de schakelmomenten.",title:"Schema {name}",heat:"Verwarmen",cool:"Koelen",range:"Verwarmen/koelen",mode:"Schemamodus",no_entity:"Kies een thermostaat in de instellingen van de kaart.",loading:"Schema wordt geladen…",no_schedule:"De thermostaat heeft nog geen schema doorgegeven.",create_schedule:"Schema aanmaken",time:"Tijd",temperature:"Temperatuur",low:"Min.",high:"Max.",carried_over:"overgenomen van de vorige dag",add_setpoint:"Schakelmoment toevoegen",remove_setpoint:"Schakelmoment verwijderen",copy_to:"{day} kopiëren naar",copy:"Kopiëren",all_days:"Alle dagen",save:"Bewaar",discard:"Wijzigingen verwerpen",saving:"Bewaren…",saved:"Bewaard. De thermostaat krijgt het schema zodra hij verbonden is.",edit_day:"{day} bewerken",close_day:"Sluiten",learning_on:"Leren staat aan: de thermostaat herschrijft zijn schema op basis van de temperaturen die je met de hand instelt, dus een schema dat je hier bewaart blijft niet zo.",turn_off_learning:"Leren uitzetten bij bewaren",changed_on_thermostat:"De thermostaat heeft zijn schema gewijzigd terwijl je het bewerkte (leren, de draairing of een andere app).",load_theirs:"Schema van de thermostaat tonen",problems:"Los dit op voordat je bewaart:",empty_day:"Geen schakelmomenten op {day}: voeg er een toe of kopieer een andere dag hierheen.",same_time:"{day} {time}: twee schakelmomenten op hetzelfde tijdstip.",out_of_range:"{day} {time}: temperaturen moeten tussen {min} en {max} liggen.",range_order:"{day} {time}: de lage temperatuur moet onder de hoge liggen.",bad_time:"{day}: een schakelmoment heeft geen geldige tijd.",error_not_a_thermostat:"{entity} is geen Thermostat Cloud-thermostaat.",error_not_loaded:"Thermostat Cloud draait niet. Controleer de integratie.",error_unknown:"Er is iets misgegaan: {message}",editor_entity:"Thermostaat",editor_title:"Titel (optioneel)",hold:"Vastgehouden op {temperature} tot {until}, daarna weer volgens schema.",resume_schedule:"Schema hervatten",away:"Afwezig: in plaats van het schema houdt de thermostaat zijn eco-temperaturen aan, {low} tot {high}.",eco:"Eco: in plaats van het schema houdt de thermostaat zijn eco-temperaturen aan, {low} tot {high}."};var X1={en:j,de:z1,es:K1,fr:j1,it:q1,nl:Y1};function O(M,H,C={}){let V=(M??"en").toLowerCase();return((X1[V]??X1[V.split("-")[0]]??j)[H]??j[H]).replace(/\{(\w+)\}/g,(e,i)=>i in C?String(C[i]):e)}var d1=["HEAT","COOL","RANGE"];var g={"°C":{min:4.5,max:32,step:.5},"°F":{min:40,max:90,step:1}};function C2(M){return M==="°F"?"°F":"°C"}function N(M,H){return H==="°C"?Math.round(M*10)/10:Math.round(M*9/5+32)}function H2(M,H){let C=H==="°C"?M:(M-32)*5/9;return Math.round(C*2)/2}function E(M,H){return typeof M=="number"&&Number.isFinite(M)?M:H}function J1(M,H){return d1.includes(M)?M:H}function V2(M){let{ver:H,name:C,schedule_mode:V,days:L,...r}=M,e=J1(V,"HEAT"),i=[];for(let t=0;t<7;t++){let A=Object.values(L?.[String(t)]??{}).map(a=>{let{time:o,type:p,entry_type:n,temp:l,"temp-min":n2,"temp-max":v2,...x2}=a,x1=J1(p,e),I={time:E(o,0),type:x1,continuation:n==="continuation",extra:x2};return x1==="RANGE"?(I.low=E(n2,NaN),I.high=E(v2,NaN)):I.temp=E(l,NaN),I});i.push(W(A))}return{ver:E(H,1),name:C,mode:e,days:i,extra:r}}function W(M){return[...M].sort((H,C)=>H.time-C.time||Number(C.continuation)-Number(H.continuation))}function q(M){let H={};M.days.forEach((V,L)=>{let r=new Set(V.filter(t=>!t.continuation).map(t=>t.time)),e=W(V).filter(t=>!t.continuation||!r.has(t.time)),i={};e.forEach((t,A)=>{let a={...t.extra,time:t.time,type:t.type,entry_type:t.continuation?"continuation":"setpoint"};t.type==="RANGE"?(a["temp-min"]=t.low,a["temp-max"]=t.high):a.temp=t.temp,i[String(A)]=a}),H[String(L)]=i});let C={...M.extra,ver:M.ver,schedule_mode:M.mode,days:H};return M.name!==void 0&&(C.name=M.name),C}function L2(M){return{ver:2,mode:M,days:Array.from({length:7},()=>[D(M,25200,M==="COOL"?24:20),D(M,79200,M==="COOL"?27:17)]),extra:{}}}function D(M,H,C){if(M==="RANGE"){let V=Math.min(C,g["°C"].max-3);return{time:H,type:M,low:V,high:V+3,continuation:!1,extra:{}}}return{time:H,type:M,temp:C,continuation:!1,extra:{}}}function M2(M,H){let C=M.days.map(V=>V.map(L=>{if(L.type===H)return L;let r=L.type==="RANGE"?H==="COOL"?L.high:L.low:L.temp,e=D(H,L.time,r);if(H==="RANGE"&&L.type==="COOL"){let i=Math.max(r,g["°C"].min+3);e={...e,low:i-3,high:i}}return{...e,continuation:L.continuation,extra:L.extra}}));return{...M,mode:H,days:C}}function r2(M,H,C){let V=M.days.map(r=>r),L=M.days[H].filter(r=>!r.continuation);for(let r of C){if(r===H)continue;let e=M.days[r].filter(i=>i.continuation);V[r]=W([...e,...L.map(i=>({...i,extra:{...i.extra}}))])}return{...M,days:V}}function m1(M,H){let C=[],V=g[H],L=r=>{if(r===void 0||!Number.isFinite(r))return!1;let e=N(r,H);return e>=V.min&&e<=V.max&&r>=g["°C"].min&&r<=g["°C"].max};return M.days.forEach((r,e)=>{if(r.length===0){C.push({key:"empty_day",day:e});return}let i=new Set;for(let t of r.filter(A=>!A.continuation)){let{time:A}=t;if(!Number.isInteger(A)||A<0||A>=86400){C.push({key:"bad_time",day:e,time:A});continue}i.has(A)&&C.push({key:"same_time",day:e,time:A}),i.add(A),(t.type==="RANGE"?[t.low,t.high]:[t.temp]).every(L)?t.type==="RANGE"&&t.low>=t.high&&C.push({key:"range_order",day:e,time:A}):C.push({key:"out_of_range",day:e,time:A,min:V.min,max:V.max})}}),C}function e2(M){let H=(M+6)%7;return Array.from({length:7},(C,V)=>(H+V)%7)}var D2=["sunday","monday","tuesday","wednesday","thursday","friday","saturday"];function t2(M,H){let C=M?D2.indexOf(M):-1;if(C>=0)return C;try{let V=new Intl.Locale(H),L=V.getWeekInfo?.()??V.weekInfo;if(L)return L.firstDay%7}catch{}return 1}function Y(M,H){let C;try{C=new Intl.DateTimeFormat(M,{weekday:H,timeZone:"UTC"})}catch{C=new Intl.DateTimeFormat("en",{weekday:H,timeZone:"UTC"})}return Array.from({length:7},(V,L)=>C.format(Date.UTC(2024,0,1+L)))}function p1(M){let H=Math.floor(M/60),C=V=>String(V).padStart(2,"0");return`${C(Math.floor(H/60)%24)}:${C(H%60)}`}function i2(M){let H=/^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(M);if(!H)return NaN;let[C,V,L]=[H[1],H[2],H[3]??"0"].map(Number);return C>23||V>59||L>59?NaN:C*3600+V*60+L}function A2(M,H){let C=M.days[H].filter(L=>L.time>=0&&L.time<86400),V=[];if(C.length===0||C[0].time>0){let L=N2(M,H),r=C.length?C[0].time:86400;L&&V.push({start:0,end:r,entry:L,carried:!0})}return C.forEach((L,r)=>{let e=r+1<C.length?C[r+1].time:86400;e>L.time&&V.push({start:L.time,end:e,entry:L,carried:!1})}),V}function N2(M,H){for(let C=1;C<=7;C++){let V=M.days[(H-C+7)%7];if(V.length)return V[V.length-1]}}function n1(M){return JSON.stringify(M,(H,C)=>C&&typeof C=="object"&&!Array.isArray(C)?Object.fromEntries(Object.entries(C).sort(([V],[L])=>V<L?-1:V>L?1:0)):C)}var o2={HEAT:"heat",COOL:"cool",RANGE:"range"},$2=[0,6,12,18,24],I2=2;function U2(M){return Object.values(M.entities??{}).find(C=>C.platform===h&&C.entity_id.startsWith("climate."))?.entity_id}var b=class extends v{constructor(){super(...arguments);this._copyTargets=new Set;this._turnOffLearning=!0;this._saving=!1;this._saved=!1}static getConfigElement(){return document.createElement(K)}static getStubConfig(C){return{type:`custom:${y}`,entity:U2(C)??""}}setConfig(C){if(!C||typeof C!="object")throw new Error("Invalid configuration");if(C.entity&&!C.entity.startsWith("climate."))throw new Error("entity must be a climate entity of Thermostat Cloud");this._config=C}getCardSize(){return 9}getGridOptions(){return{columns:12,min_columns:6,rows:"auto"}}connectedCallback(){super.connectedCallback(),this._subscribe(),this._resized??=new ResizeObserver(()=>this._fitLabels()),this._resized.observe(this)}disconnectedCallback(){super.disconnectedCallback(),this._unsubscribeNow(),this._resized?.disconnect()}shouldUpdate(C){if(C.size!==1||!C.has("hass"))return!0;let V=C.get("hass"),L=this.hass;if(!V||!L)return!0;let r=this._config?.entity;return V.connection!==L.connection||V.language!==L.language||V.locale!==L.locale||V.config!==L.config||V.themes!==L.themes||r!==void 0&&V.states[r]!==L.states[r]}updated(C){(C.has("hass")||C.has("_config"))&&this._subscribe(),this._fitLabels()}_fitLabels(){for(let C of this.renderRoot.querySelectorAll(".segment")){let V=C.querySelector(".label");if(!V)continue;V.hidden=!1;let L=C.getBoundingClientRect(),r=V.getBoundingClientRect();V.hidden=r.left<L.left||r.right>L.right-I2;let e=G1(getComputedStyle(C).backgroundColor);e&&(V.style.color=Q1(e))}}_subscribe(){let C=this._config?.entity,V=this.hass?.connection;if(!this.isConnected||!C||!V)return;let L=this._subscribedTo;L&&L.entity===C&&L.connection===V||(this._unsubscribeNow(),this._subscribedTo={entity:C,connection:V},this._message=void 0,this._base=this._week=this._theirs=void 0,this._error=void 0,this._unsubscribe=V.subscribeMessage(r=>this._received(r),{type:W1,entity_id:C}).catch(r=>{this._error=this._describe(r)}))}_unsubscribeNow(){let C=this._unsubscribe;this._unsubscribe=void 0,this._subscribedTo=void 0,C?.then(V=>V?.()).catch(()=>{})}_received(C){this._message=C;let V=C.schedule?V2(C.schedule):void 0;!this._dirty||V&&this._week&&a2(V,this._week)?(this._base=V,this._week=V,this._theirs=void 0):(this._base=V,this._theirs=V)}get _dirty(){return this._week?!this._base||!a2(this._base,this._week):!1}get _language(){return this.hass?.locale?.language??this.hass?.language??"en"}_t(C,V){return O(this.hass?.language,C,V)}get _unit(){return C2(this.hass?.config.unit_system.temperature)}_temperature(C){return C===void 0||!Number.isFinite(C)?"–":`${N(C,this._unit).toLocaleString(this._language)} ${this._unit}`}_entryLabel(C){return C.type==="RANGE"?`${this._temperature(C.low)} – ${this._temperature(C.high)}`:this._temperature(C.temp)}_entryNumbers(C){let V=L=>L===void 0||!Number.isFinite(L)?"–":N(L,this._unit).toLocaleString(this._language);return C.type==="RANGE"?`${V(C.low)}–${V(C.high)}`:V(C.temp)}_hour(C){try{return new Date(Date.UTC(2024,0,1,C)).toLocaleTimeString(this._language,{hour:"numeric",timeZone:"UTC"})}catch{return String(C)}}_time(C){let V=new Date(Date.UTC(2024,0,1,0,0,C));try{return V.toLocaleTimeString(this._language,{hour:"numeric",minute:"2-digit",timeZone:"UTC"})}catch{return p1(C)}}render(){let C=this._config,V=C?.entity,r=(V?this.hass?.states[V]:void 0)?.attributes.friendly_name??V??"",e=C?.title||(V?this._t("title",{name:r}):this._t("card_name"));return d`
      <ha-card>
        <div class="header">
          <h2 class="title">${e}</h2>
          ${this._week?this._renderMode(this._week):m}
        </div>
        <div class="content">${this._renderBody(V)}</div>
      </ha-card>
    `}_renderBody(C){if(!C)return d`<p class="note">${this._t("no_entity")}</p>`;if(this._error&&!this._message)return d`<p class="message error" role="alert">${this._error}</p>`;if(!this._message)return d`<p class="note">${this._t("loading")}</p>`;let V=this._week;if(!V)return d`
        <p class="note">${this._t("no_schedule")}</p>
        <div class="actions">
          <button class="primary" @click=${()=>this._week=L2("HEAT")}>
            ${this._t("create_schedule")}
          </button>
        </div>
      `;let L=m1(V,this._unit),r=Y(this._language,"long"),e=Y(this._language,"short"),i=e2(t2(this.hass?.locale?.first_weekday,this._language));return d`
      ${this._message.learning?d`<div class="message warning" role="note">
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
      ${this._theirs?d`<div class="message warning" role="status">
            <p>${this._t("changed_on_thermostat")}</p>
            <button @click=${this._loadTheirs}>${this._t("load_theirs")}</button>
          </div>`:m}
      <div class="week" role="list">
        ${i.map(t=>this._renderDay(V,t,r,e,i))}
        <div class="hours" aria-hidden="true">
          <span></span>
          <div class="scale">
            ${$2.map(t=>d`<span style="left:${t/24*100}%">${this._hour(t%24)}</span>`)}
          </div>
        </div>
      </div>
      ${L.length?this._renderProblems(L,r):m}
      ${this._error?d`<p class="message error" role="alert">${this._error}</p>`:m}
      ${this._saved&&!this._dirty?d`<p class="message ok" role="status">${this._t("saved")}</p>`:m}
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
    `}_renderHold(C){let V=C.target!==null?this._temperature(C.target):`${this._temperature(C.low??void 0)} – ${this._temperature(C.high??void 0)}`,L=C.until;try{L=new Date(C.until).toLocaleString(this._language,{weekday:"short",hour:"numeric",minute:"2-digit"})}catch{}return d`<div class="message hold" role="status">
      <p>${this._t("hold",{temperature:V,until:L})}</p>
      <button @click=${this._resumeSchedule}>${this._t("resume_schedule")}</button>
    </div>`}_renderEco(C){let V={low:this._temperature(C.low??void 0),high:this._temperature(C.high??void 0)};return d`<div class="message hold eco" role="status">
      <p>${this._t(C.away?"away":"eco",V)}</p>
    </div>`}async _resumeSchedule(){let C=this._config?.entity;if(!(!this.hass||!C)){this._error=void 0;try{await this.hass.callService(h,"resume_schedule",{},{entity_id:C})}catch(V){this._error=this._describe(V)}}}_renderMode(C){return d`
      <label class="mode">
        <span class="visually-hidden">${this._t("mode")}</span>
        <select
          aria-label=${this._t("mode")}
          .value=${C.mode}
          @change=${V=>this._edit(M2(C,V.target.value))}
        >
          ${d1.map(V=>d`<option value=${V} ?selected=${V===C.mode}>
                ${this._t(o2[V])}
              </option>`)}
        </select>
      </label>
    `}_renderDay(C,V,L,r,e){let i=this._day===V,t=A2(C,V),[A,a]=G2(C);return d`
      <div class="day ${i?"open":""}" role="listitem">
        <button
          class="day-line"
          aria-expanded=${i?"true":"false"}
          aria-label=${this._t("edit_day",{day:L[V]})}
          @click=${()=>this._openDay(i?void 0:V)}
        >
          <span class="day-name" title=${L[V]}>${r[V]}</span>
          <span class="line">
            ${t.map(o=>{let p=Q2(m2(o.entry),A,a),n=this._entryLabel(o.entry),l=o.carried?`${this._time(o.start)} ${n} (${this._t("carried_over")})`:`${this._time(o.start)} ${n}`;return d`<span
                class="segment ${o.entry.type.toLowerCase()} ${o.carried?"carried":""}"
                style="left:${(o.start/864).toFixed(3)}%;width:${((o.end-o.start)/864).toFixed(3)}%;--tc-share:${p}%"
                title=${l}
                ><span class="label">${this._entryNumbers(o.entry)}</span></span
              >`})}
          </span>
        </button>
        ${i?this._renderDayEditor(C,V,L,e):m}
      </div>
    `}_renderDayEditor(C,V,L,r){let e=g[this._unit],i=C.days[V],t=(A,a,o,p)=>d`
      <label class="field">
        <span>${p}</span>
        <span class="with-unit">
          <input
            type="number"
            inputmode="decimal"
            min=${e.min}
            max=${e.max}
            step=${e.step}
            .value=${Number.isFinite(A[o])?String(N(A[o],this._unit)):""}
            @change=${n=>this._setTemperature(V,a,o,n.target.value)}
          />
          <span class="unit">${this._unit}</span>
        </span>
      </label>
    `;return d`
      <div class="editor">
        <div class="editor-head">
          <h3>${L[V]}</h3>
          ${d2(_1,this._t("close_day"),()=>this._openDay(void 0))}
        </div>
        <ul class="entries">
          ${i.map((A,a)=>A.continuation?d`<li class="entry carried">
                  <span>${this._time(A.time)}</span>
                  <span>${this._entryLabel(A)}</span>
                  <span class="hint">${this._t("carried_over")}</span>
                </li>`:d`<li class="entry ${A.type.toLowerCase()}">
                  <label class="field">
                    <span>${this._t("time")}</span>
                    <input
                      type="time"
                      step="60"
                      required
                      .value=${Number.isFinite(A.time)?p1(A.time):""}
                      @change=${o=>this._setTime(V,a,o.target.value)}
                    />
                  </label>
                  ${A.type==="RANGE"?d`${t(A,a,"low",this._t("low"))}
                      ${t(A,a,"high",this._t("high"))}`:t(A,a,"temp",this._t(o2[A.type]))}
                  ${d2(D1,this._t("remove_setpoint"),()=>this._remove(V,a))}
                </li>`)}
        </ul>
        <button class="add" @click=${()=>this._add(V)}>
          ${v1(N1)} ${this._t("add_setpoint")}
        </button>
        <fieldset class="copy">
          <legend>${this._t("copy_to",{day:L[V]})}</legend>
          <div class="chips">
            ${r.filter(A=>A!==V).map(A=>d`<label class="chip">
                  <input
                    type="checkbox"
                    .checked=${this._copyTargets.has(A)}
                    @change=${a=>this._toggleCopy(A,a.target.checked)}
                  />
                  ${Y(this._language,"short")[A]}
                </label>`)}
            <button class="link" @click=${()=>this._selectAllCopy(V)}>${this._t("all_days")}</button>
          </div>
          <button ?disabled=${this._copyTargets.size===0} @click=${()=>this._copy(V)}>
            ${v1(E1)} ${this._t("copy")}
          </button>
        </fieldset>
      </div>
    `}_renderProblems(C,V){return d`
      <div class="message error" role="alert">
        <p>${this._t("problems")}</p>
        <ul>
          ${C.map(L=>{let r={day:V[L.day]};return"time"in L&&Number.isFinite(L.time)&&(r.time=this._time(L.time)),L.key==="out_of_range"&&(r.min=`${L.min} ${this._unit}`,r.max=`${L.max} ${this._unit}`),d`<li>${this._t(L.key,r)}</li>`})}
        </ul>
      </div>
    `}_edit(C){this._week=C,this._saved=!1,this._error=void 0}_editDay(C,V,L=!0){let r=this._week,e=[...r.days],i=V([...e[C]]);e[C]=L?W(i):i,this._edit({...r,days:e})}_openDay(C){this._day=C,this._copyTargets=new Set}_setTime(C,V,L){this._editDay(C,r=>(r[V]={...r[V],time:i2(L)},r))}_setTemperature(C,V,L,r){let e=r.trim()===""?NaN:Number(r);this._editDay(C,i=>(i[V]={...i[V],[L]:H2(e,this._unit)},i))}_remove(C,V){this._editDay(C,L=>L.filter((r,e)=>e!==V))}_add(C){let V=this._week,L=V.days[C].filter(t=>!t.continuation&&Number.isFinite(t.time)),r=L[L.length-1],e=r?Math.min(r.time+3600,23*3600):12*3600,i=r?r.type==="RANGE"?r.low:r.temp:20;this._editDay(C,t=>[...t,D(V.mode,e,Number.isFinite(i)?i:20)])}_toggleCopy(C,V){let L=new Set(this._copyTargets);V?L.add(C):L.delete(C),this._copyTargets=L}_selectAllCopy(C){this._copyTargets=new Set(Array.from({length:7},(V,L)=>L).filter(V=>V!==C))}_copy(C){this._edit(r2(this._week,C,this._copyTargets)),this._copyTargets=new Set}_discard(){this._week=this._base,this._theirs=void 0,this._error=void 0}_loadTheirs(){this._discard()}async _save(){let C=this._week,V=this._config?.entity;if(!C||!V||!this.hass||m1(C,this._unit).length)return;let L={schedule:q(C)};this._message?.learning&&(L.turn_off_learning=this._turnOffLearning),this._saving=!0,this._error=void 0;try{await this.hass.callService(h,"set_schedule",L,{entity_id:V}),this._base=C,this._theirs=void 0,this._saved=!0}catch(r){this._error=this._describe(r)}finally{this._saving=!1}}_describe(C){return C?.code==="not_a_thermostat"?this._t("error_not_a_thermostat",{entity:this._config?.entity??""}):C?.code==="not_loaded"?this._t("error_not_loaded"):C?.message||this._t("error_unknown",{message:String(C?.code??C)})}};b.properties={hass:{attribute:!1},_config:{state:!0},_message:{state:!0},_base:{state:!0},_week:{state:!0},_theirs:{state:!0},_day:{state:!0},_copyTargets:{state:!0},_turnOffLearning:{state:!0},_saving:{state:!0},_saved:{state:!0},_error:{state:!0}},b.styles=J`
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
  `;function m2(M){return M.type==="RANGE"?(M.low+M.high)/2:M.temp}function G2(M){let H=M.days.flat().map(m2).filter(Number.isFinite);return H.length?[Math.min(...H),Math.max(...H)]:[0,0]}function Q2(M,H,C){return!Number.isFinite(M)||C<=H?100:Math.round(45+55*(M-H)/(C-H))}function a2(M,H){return n1(q(M))===n1(q(H))}function v1(M){return d`<svg viewBox="0 0 24 24" aria-hidden="true">${T1`<path d=${M}></path>`}</svg>`}function d2(M,H,C){return customElements.get("ha-icon-button")?d`<ha-icon-button .path=${M} .label=${H} @click=${C}></ha-icon-button>`:d`<button class="icon-button" aria-label=${H} title=${H} @click=${C}>
    ${v1(M)}
  </button>`}var z2=[{name:"entity",required:!0,selector:{entity:{filter:{integration:h,domain:"climate"}}}},{name:"title",selector:{text:{}}}],K2={entity:"editor_entity",title:"editor_title"},$=class extends v{setConfig(H){this._config=H}render(){return!this.hass||!this._config?m:d`
      <ha-form
        .hass=${this.hass}
        .data=${this._config}
        .schema=${z2}
        .computeLabel=${H=>O(this.hass?.language,K2[H.name]??"editor_entity")}
        @value-changed=${this._valueChanged}
      ></ha-form>
    `}_valueChanged(H){H.stopPropagation();let C={...this._config,...H.detail.value};C.title||delete C.title,this._config=C,this.dispatchEvent(new CustomEvent("config-changed",{detail:{config:C},bubbles:!0,composed:!0}))}};$.properties={hass:{attribute:!1},_config:{state:!0}};function p2(){if(customElements.get(y))return;customElements.define(y,b),customElements.define(K,$);let M=document.documentElement.lang||navigator.language;window.customCards=window.customCards??[],window.customCards.push({type:y,name:O(M,"card_name"),description:O(M,"card_description"),preview:!0,documentationURL:"https://github.com/thermostat-cloud/thermostat-cloud#the-thermostat-in-home-assistant"})}customElements.get("home-assistant")?p2():customElements.whenDefined("home-assistant").then(p2,()=>{});
