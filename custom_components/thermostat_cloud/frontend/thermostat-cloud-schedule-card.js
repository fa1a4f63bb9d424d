/*! Thermostat Cloud schedule card. Built by frontend/build.mjs from sources sha256:368a014b5a89a1e1394092524dc5d5696744c4f59b2f070b694eb4eceb909349 (MIT; includes Lit, BSD-3-Clause, and Material Design Icons, Apache-2.0) */
var U=globalThis,G=U.ShadowRoot&&(U.ShadyCSS===void 0||U.ShadyCSS.nativeShadow)&&"adoptedStyleSheets"in Document.prototype&&"replace"in CSSStyleSheet.prototype,X=Symbol(),l1=new WeakMap,b=class{constructor(C,H,V){if(this._$cssResult$=!0,V!==X)throw Error("CSSResult is not constructable. Use `unsafeCSS` or `css` instead.");this.cssText=C,this.t=H}get styleSheet(){let C=this.o,H=this.t;if(G&&C===void 0){let V=H!==void 0&&H.length===1;V&&(C=l1.get(H)),C===void 0&&((this.o=C=new CSSStyleSheet).replaceSync(this.cssText),V&&l1.set(H,C))}return C}toString(){return this.cssText}},Z1=M=>new b(typeof M=="string"?M:M+"",void 0,X),J=(M,...C)=>{let H=M.length===1?M[0]:C.reduce((V,L,r)=>V+(e=>{if(e._$cssResult$===!0)return e.cssText;if(typeof e=="number")return e;throw Error("Value passed to 'css' function must be a 'css' function result: "+e+". Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security.")})(L)+M[r+1],M[0]);return new b(H,M,X)},S1=(M,C)=>{if(G)M.adoptedStyleSheets=C.map(H=>H instanceof CSSStyleSheet?H:H.styleSheet);else for(let H of C){let V=document.createElement("style"),L=U.litNonce;L!==void 0&&V.setAttribute("nonce",L),V.textContent=H.cssText,M.appendChild(V)}},C1=G?M=>M:M=>M instanceof CSSStyleSheet?(C=>{let H="";for(let V of C.cssRules)H+=V.cssText;return Z1(H)})(M):M;var{is:p2,defineProperty:m2,getOwnPropertyDescriptor:n2,getOwnPropertyNames:v2,getOwnPropertySymbols:x2,getPrototypeOf:l2}=Object,Q=globalThis,u1=Q.trustedTypes,Z2=u1?u1.emptyScript:"",S2=Q.reactiveElementPolyfillSupport,P=(M,C)=>M,H1={toAttribute(M,C){switch(C){case Boolean:M=M?Z2:null;break;case Object:case Array:M=M==null?M:JSON.stringify(M)}return M},fromAttribute(M,C){let H=M;switch(C){case Boolean:H=M!==null;break;case Number:H=M===null?null:Number(M);break;case Object:case Array:try{H=JSON.parse(M)}catch{H=null}}return H}},c1=(M,C)=>!p2(M,C),s1={attribute:!0,type:String,converter:H1,reflect:!1,useDefault:!1,hasChanged:c1};Symbol.metadata??=Symbol("metadata"),Q.litPropertyMetadata??=new WeakMap;var x=class extends HTMLElement{static addInitializer(C){this._$Ei(),(this.l??=[]).push(C)}static get observedAttributes(){return this.finalize(),this._$Eh&&[...this._$Eh.keys()]}static createProperty(C,H=s1){if(H.state&&(H.attribute=!1),this._$Ei(),this.prototype.hasOwnProperty(C)&&((H=Object.create(H)).wrapped=!0),this.elementProperties.set(C,H),!H.noAccessor){let V=Symbol(),L=this.getPropertyDescriptor(C,V,H);L!==void 0&&m2(this.prototype,C,L)}}static getPropertyDescriptor(C,H,V){let{get:L,set:r}=n2(this.prototype,C)??{get(){return this[H]},set(e){this[H]=e}};return{get:L,set(e){let i=L?.call(this);r?.call(this,e),this.requestUpdate(C,i,V)},configurable:!0,enumerable:!0}}static getPropertyOptions(C){return this.elementProperties.get(C)??s1}static _$Ei(){if(this.hasOwnProperty(P("elementProperties")))return;let C=l2(this);C.finalize(),C.l!==void 0&&(this.l=[...C.l]),this.elementProperties=new Map(C.elementProperties)}static finalize(){if(this.hasOwnProperty(P("finalized")))return;if(this.finalized=!0,this._$Ei(),this.hasOwnProperty(P("properties"))){let H=this.properties,V=[...v2(H),...x2(H)];for(let L of V)this.createProperty(L,H[L])}let C=this[Symbol.metadata];if(C!==null){let H=litPropertyMetadata.get(C);if(H!==void 0)for(let[V,L]of H)this.elementProperties.set(V,L)}this._$Eh=new Map;for(let[H,V]of this.elementProperties){let L=this._$Eu(H,V);L!==void 0&&this._$Eh.set(L,H)}this.elementStyles=this.finalizeStyles(this.styles)}static finalizeStyles(C){let H=[];if(Array.isArray(C)){let V=new Set(C.flat(1/0).reverse());for(let L of V)H.unshift(C1(L))}else C!==void 0&&H.push(C1(C));return H}static _$Eu(C,H){let V=H.attribute;return V===!1?void 0:typeof V=="string"?V:typeof C=="string"?C.toLowerCase():void 0}constructor(){super(),this._$Ep=void 0,this.isUpdatePending=!1,this.hasUpdated=!1,this._$Em=null,this._$Ev()}_$Ev(){this._$ES=new Promise(C=>this.enableUpdating=C),this._$AL=new Map,this._$E_(),this.requestUpdate(),this.constructor.l?.forEach(C=>C(this))}addController(C){(this._$EO??=new Set).add(C),this.renderRoot!==void 0&&this.isConnected&&C.hostConnected?.()}removeController(C){this._$EO?.delete(C)}_$E_(){let C=new Map,H=this.constructor.elementProperties;for(let V of H.keys())this.hasOwnProperty(V)&&(C.set(V,this[V]),delete this[V]);C.size>0&&(this._$Ep=C)}createRenderRoot(){let C=this.shadowRoot??this.attachShadow(this.constructor.shadowRootOptions);return S1(C,this.constructor.elementStyles),C}connectedCallback(){this.renderRoot??=this.createRenderRoot(),this.enableUpdating(!0),this._$EO?.forEach(C=>C.hostConnected?.())}enableUpdating(C){}disconnectedCallback(){this._$EO?.forEach(C=>C.hostDisconnected?.())}attributeChangedCallback(C,H,V){this._$AK(C,V)}_$ET(C,H){let V=this.constructor.elementProperties.get(C),L=this.constructor._$Eu(C,V);if(L!==void 0&&V.reflect===!0){let r=(V.converter?.toAttribute!==void 0?V.converter:H1).toAttribute(H,V.type);this._$Em=C,r==null?this.removeAttribute(L):this.setAttribute(L,r),this._$Em=null}}_$AK(C,H){let V=this.constructor,L=V._$Eh.get(C);if(L!==void 0&&this._$Em!==L){let r=V.getPropertyOptions(L),e=typeof r.converter=="function"?{fromAttribute:r.converter}:r.converter?.fromAttribute!==void 0?r.converter:H1;this._$Em=L;let i=e.fromAttribute(H,r.type);this[L]=i??this._$Ej?.get(L)??i,this._$Em=null}}requestUpdate(C,H,V,L=!1,r){if(C!==void 0){let e=this.constructor;if(L===!1&&(r=this[C]),V??=e.getPropertyOptions(C),!((V.hasChanged??c1)(r,H)||V.useDefault&&V.reflect&&r===this._$Ej?.get(C)&&!this.hasAttribute(e._$Eu(C,V))))return;this.C(C,H,V)}this.isUpdatePending===!1&&(this._$ES=this._$EP())}C(C,H,{useDefault:V,reflect:L,wrapped:r},e){V&&!(this._$Ej??=new Map).has(C)&&(this._$Ej.set(C,e??H??this[C]),r!==!0||e!==void 0)||(this._$AL.has(C)||(this.hasUpdated||V||(H=void 0),this._$AL.set(C,H)),L===!0&&this._$Em!==C&&(this._$Eq??=new Set).add(C))}async _$EP(){this.isUpdatePending=!0;try{await this._$ES}catch(H){Promise.reject(H)}let C=this.scheduleUpdate();return C!=null&&await C,!this.isUpdatePending}scheduleUpdate(){return this.performUpdate()}performUpdate(){if(!this.isUpdatePending)return;if(!this.hasUpdated){if(this.renderRoot??=this.createRenderRoot(),this._$Ep){for(let[L,r]of this._$Ep)this[L]=r;this._$Ep=void 0}let V=this.constructor.elementProperties;if(V.size>0)for(let[L,r]of V){let{wrapped:e}=r,i=this[L];e!==!0||this._$AL.has(L)||i===void 0||this.C(L,void 0,r,i)}}let C=!1,H=this._$AL;try{C=this.shouldUpdate(H),C?(this.willUpdate(H),this._$EO?.forEach(V=>V.hostUpdate?.()),this.update(H)):this._$EM()}catch(V){throw C=!1,this._$EM(),V}C&&this._$AE(H)}willUpdate(C){}_$AE(C){this._$EO?.forEach(H=>H.hostUpdated?.()),this.hasUpdated||(this.hasUpdated=!0,this.firstUpdated(C)),this.updated(C)}_$EM(){this._$AL=new Map,this.isUpdatePending=!1}get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}shouldUpdate(C){return!0}update(C){this._$Eq&&=this._$Eq.forEach(H=>this._$ET(H,this[H])),this._$EM()}updated(C){}firstUpdated(C){}};x.elementStyles=[],x.shadowRootOptions={mode:"open"},x[P("elementProperties")]=new Map,x[P("finalized")]=new Map,S2?.({ReactiveElement:x}),(Q.reactiveElementVersions??=[]).push("2.1.2");var i1=globalThis,h1=M=>M,z=i1.trustedTypes,O1=z?z.createPolicy("lit-html",{createHTML:M=>M}):void 0,b1="$lit$",l=`lit$${Math.random().toFixed(9).slice(2)}$`,P1="?"+l,u2=`<${P1}>`,u=document,T=()=>u.createComment(""),F=M=>M===null||typeof M!="object"&&typeof M!="function",A1=Array.isArray,s2=M=>A1(M)||typeof M?.[Symbol.iterator]=="function",V1=`[ 	
\f\r]`,w=/<(?:(!--|\/[^a-zA-Z])|(\/?[a-zA-Z][^>\s]*)|(\/?$))/g,g1=/-->/g,f1=/>/g,Z=RegExp(`>|${V1}(?:([^\\s"'>=/]+)(${V1}*=${V1}*(?:[^ 	
\f\r"'\`<>=]|("|')|))|$)`,"g"),k1=/'/g,y1=/"/g,w1=/^(?:script|style|textarea|title)$/i,o1=M=>(C,...H)=>({_$litType$:M,strings:C,values:H}),d=o1(1),T1=o1(2),G2=o1(3),s=Symbol.for("lit-noChange"),p=Symbol.for("lit-nothing"),B1=new WeakMap,S=u.createTreeWalker(u,129);function F1(M,C){if(!A1(M)||!M.hasOwnProperty("raw"))throw Error("invalid template strings array");return O1!==void 0?O1.createHTML(C):C}var c2=(M,C)=>{let H=M.length-1,V=[],L,r=C===2?"<svg>":C===3?"<math>":"",e=w;for(let i=0;i<H;i++){let t=M[i],A,a,o=-1,m=0;for(;m<t.length&&(e.lastIndex=m,a=e.exec(t),a!==null);)m=e.lastIndex,e===w?a[1]==="!--"?e=g1:a[1]!==void 0?e=f1:a[2]!==void 0?(w1.test(a[2])&&(L=RegExp("</"+a[2],"g")),e=Z):a[3]!==void 0&&(e=Z):e===Z?a[0]===">"?(e=L??w,o=-1):a[1]===void 0?o=-2:(o=e.lastIndex-a[2].length,A=a[1],e=a[3]===void 0?Z:a[3]==='"'?y1:k1):e===y1||e===k1?e=Z:e===g1||e===f1?e=w:(e=Z,L=void 0);let n=e===Z&&M[i+1].startsWith("/>")?" ":"";r+=e===w?t+u2:o>=0?(V.push(A),t.slice(0,o)+b1+t.slice(o)+l+n):t+l+(o===-2?i:n)}return[F1(M,r+(M[H]||"<?>")+(C===2?"</svg>":C===3?"</math>":"")),V]},R=class M{constructor({strings:C,_$litType$:H},V){let L;this.parts=[];let r=0,e=0,i=C.length-1,t=this.parts,[A,a]=c2(C,H);if(this.el=M.createElement(A,V),S.currentNode=this.el.content,H===2||H===3){let o=this.el.content.firstChild;o.replaceWith(...o.childNodes)}for(;(L=S.nextNode())!==null&&t.length<i;){if(L.nodeType===1){if(L.hasAttributes())for(let o of L.getAttributeNames())if(o.endsWith(b1)){let m=a[e++],n=L.getAttribute(o).split(l),g=/([.?@])?(.*)/.exec(m);t.push({type:1,index:r,name:g[2],strings:n,ctor:g[1]==="."?M1:g[1]==="?"?r1:g[1]==="@"?e1:k}),L.removeAttribute(o)}else o.startsWith(l)&&(t.push({type:6,index:r}),L.removeAttribute(o));if(w1.test(L.tagName)){let o=L.textContent.split(l),m=o.length-1;if(m>0){L.textContent=z?z.emptyScript:"";for(let n=0;n<m;n++)L.append(o[n],T()),S.nextNode(),t.push({type:2,index:++r});L.append(o[m],T())}}}else if(L.nodeType===8)if(L.data===P1)t.push({type:2,index:r});else{let o=-1;for(;(o=L.data.indexOf(l,o+1))!==-1;)t.push({type:7,index:r}),o+=l.length-1}r++}}static createElement(C,H){let V=u.createElement("template");return V.innerHTML=C,V}};function f(M,C,H=M,V){if(C===s)return C;let L=V!==void 0?H._$Co?.[V]:H._$Cl,r=F(C)?void 0:C._$litDirective$;return L?.constructor!==r&&(L?._$AO?.(!1),r===void 0?L=void 0:(L=new r(M),L._$AT(M,H,V)),V!==void 0?(H._$Co??=[])[V]=L:H._$Cl=L),L!==void 0&&(C=f(M,L._$AS(M,C.values),L,V)),C}var L1=class{constructor(C,H){this._$AV=[],this._$AN=void 0,this._$AD=C,this._$AM=H}get parentNode(){return this._$AM.parentNode}get _$AU(){return this._$AM._$AU}u(C){let{el:{content:H},parts:V}=this._$AD,L=(C?.creationScope??u).importNode(H,!0);S.currentNode=L;let r=S.nextNode(),e=0,i=0,t=V[0];for(;t!==void 0;){if(e===t.index){let A;t.type===2?A=new _(r,r.nextSibling,this,C):t.type===1?A=new t.ctor(r,t.name,t.strings,this,C):t.type===6&&(A=new t1(r,this,C)),this._$AV.push(A),t=V[++i]}e!==t?.index&&(r=S.nextNode(),e++)}return S.currentNode=u,L}p(C){let H=0;for(let V of this._$AV)V!==void 0&&(V.strings!==void 0?(V._$AI(C,V,H),H+=V.strings.length-2):V._$AI(C[H])),H++}},_=class M{get _$AU(){return this._$AM?._$AU??this._$Cv}constructor(C,H,V,L){this.type=2,this._$AH=p,this._$AN=void 0,this._$AA=C,this._$AB=H,this._$AM=V,this.options=L,this._$Cv=L?.isConnected??!0}get parentNode(){let C=this._$AA.parentNode,H=this._$AM;return H!==void 0&&C?.nodeType===11&&(C=H.parentNode),C}get startNode(){return this._$AA}get endNode(){return this._$AB}_$AI(C,H=this){C=f(this,C,H),F(C)?C===p||C==null||C===""?(this._$AH!==p&&this._$AR(),this._$AH=p):C!==this._$AH&&C!==s&&this._(C):C._$litType$!==void 0?this.$(C):C.nodeType!==void 0?this.T(C):s2(C)?this.k(C):this._(C)}O(C){return this._$AA.parentNode.insertBefore(C,this._$AB)}T(C){this._$AH!==C&&(this._$AR(),this._$AH=this.O(C))}_(C){this._$AH!==p&&F(this._$AH)?this._$AA.nextSibling.data=C:this.T(u.createTextNode(C)),this._$AH=C}$(C){let{values:H,_$litType$:V}=C,L=typeof V=="number"?this._$AC(C):(V.el===void 0&&(V.el=R.createElement(F1(V.h,V.h[0]),this.options)),V);if(this._$AH?._$AD===L)this._$AH.p(H);else{let r=new L1(L,this),e=r.u(this.options);r.p(H),this.T(e),this._$AH=r}}_$AC(C){let H=B1.get(C.strings);return H===void 0&&B1.set(C.strings,H=new R(C)),H}k(C){A1(this._$AH)||(this._$AH=[],this._$AR());let H=this._$AH,V,L=0;for(let r of C)L===H.length?H.push(V=new M(this.O(T()),this.O(T()),this,this.options)):V=H[L],V._$AI(r),L++;L<H.length&&(this._$AR(V&&V._$AB.nextSibling,L),H.length=L)}_$AR(C=this._$AA.nextSibling,H){for(this._$AP?.(!1,!0,H);C!==this._$AB;){let V=h1(C).nextSibling;h1(C).remove(),C=V}}setConnected(C){this._$AM===void 0&&(this._$Cv=C,this._$AP?.(C))}},k=class{get tagName(){return this.element.tagName}get _$AU(){return this._$AM._$AU}constructor(C,H,V,L,r){this.type=1,this._$AH=p,this._$AN=void 0,this.element=C,this.name=H,this._$AM=L,this.options=r,V.length>2||V[0]!==""||V[1]!==""?(this._$AH=Array(V.length-1).fill(new String),this.strings=V):this._$AH=p}_$AI(C,H=this,V,L){let r=this.strings,e=!1;if(r===void 0)C=f(this,C,H,0),e=!F(C)||C!==this._$AH&&C!==s,e&&(this._$AH=C);else{let i=C,t,A;for(C=r[0],t=0;t<r.length-1;t++)A=f(this,i[V+t],H,t),A===s&&(A=this._$AH[t]),e||=!F(A)||A!==this._$AH[t],A===p?C=p:C!==p&&(C+=(A??"")+r[t+1]),this._$AH[t]=A}e&&!L&&this.j(C)}j(C){C===p?this.element.removeAttribute(this.name):this.element.setAttribute(this.name,C??"")}},M1=class extends k{constructor(){super(...arguments),this.type=3}j(C){this.element[this.name]=C===p?void 0:C}},r1=class extends k{constructor(){super(...arguments),this.type=4}j(C){this.element.toggleAttribute(this.name,!!C&&C!==p)}},e1=class extends k{constructor(C,H,V,L,r){super(C,H,V,L,r),this.type=5}_$AI(C,H=this){if((C=f(this,C,H,0)??p)===s)return;let V=this._$AH,L=C===p&&V!==p||C.capture!==V.capture||C.once!==V.once||C.passive!==V.passive,r=C!==p&&(V===p||L);L&&this.element.removeEventListener(this.name,this,V),r&&this.element.addEventListener(this.name,this,C),this._$AH=C}handleEvent(C){typeof this._$AH=="function"?this._$AH.call(this.options?.host??this.element,C):this._$AH.handleEvent(C)}},t1=class{constructor(C,H,V){this.element=C,this.type=6,this._$AN=void 0,this._$AM=H,this.options=V}get _$AU(){return this._$AM._$AU}_$AI(C){f(this,C)}};var h2=i1.litHtmlPolyfillSupport;h2?.(R,_),(i1.litHtmlVersions??=[]).push("3.3.3");var R1=(M,C,H)=>{let V=H?.renderBefore??C,L=V._$litPart$;if(L===void 0){let r=H?.renderBefore??null;V._$litPart$=L=new _(C.insertBefore(T(),r),r,void 0,H??{})}return L._$AI(M),L};var a1=globalThis,v=class extends x{constructor(){super(...arguments),this.renderOptions={host:this},this._$Do=void 0}createRenderRoot(){let C=super.createRenderRoot();return this.renderOptions.renderBefore??=C.firstChild,C}update(C){let H=this.render();this.hasUpdated||(this.renderOptions.isConnected=this.isConnected),super.update(C),this._$Do=R1(H,this.renderRoot,this.renderOptions)}connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}render(){return s}};v._$litElement$=!0,v.finalized=!0,a1.litElementHydrateSupport?.({LitElement:v});var O2=a1.litElementPolyfillSupport;O2?.({LitElement:v});(a1.litElementVersions??=[]).push("4.2.2");var _1="M19,6.41L17.59,5L12,10.59L6.41,5L5,6.41L10.59,12L5,17.59L6.41,19L12,13.41L17.59,19L19,17.59L13.41,12L19,6.41Z";var D1="M19,21H8V7H19M19,5H8A2,2 0 0,0 6,7V21A2,2 0 0,0 8,23H19A2,2 0 0,0 21,21V7A2,2 0 0,0 19,5M16,1H4A2,2 0 0,0 2,3V17H4V3H16V1Z";var E1="M19,4H15.5L14.5,3H9.5L8.5,4H5V6H19M6,19A2,2 0 0,0 8,21H16A2,2 0 0,0 18,19V7H6V19Z";var N1="M19,13H13V19H11V13H5V11H11V5H13V11H19V13Z";var c="thermostat_cloud",y="thermostat-cloud-schedule-card",K="thermostat-cloud-schedule-card-editor",W1=`${c}/schedule/subscribe`;var $1={card_name:"Thermostat-Zeitplan",card_description:"Der Wochenplan eines Thermostat-Cloud-Thermostats: Schaltpunkte ansehen und ändern.",title:"Zeitplan {name}",heat:"Heizen",cool:"Kühlen",range:"Heizen/Kühlen",mode:"Modus des Zeitplans",no_entity:"Wähle in den Einstellungen der Karte ein Thermostat.",loading:"Zeitplan wird geladen…",no_schedule:"Das Thermostat hat noch keinen Zeitplan gemeldet.",create_schedule:"Zeitplan anlegen",time:"Uhrzeit",temperature:"Temperatur",low:"Min.",high:"Max.",carried_over:"vom Vortag übernommen",add_setpoint:"Schaltpunkt hinzufügen",remove_setpoint:"Schaltpunkt entfernen",copy_to:"{day} kopieren nach",copy:"Kopieren",all_days:"Alle Tage",save:"Speichern",discard:"Änderungen verwerfen",saving:"Wird gespeichert…",saved:"Gespeichert. Das Thermostat erhält den Zeitplan, sobald es verbunden ist.",edit_day:"{day} bearbeiten",close_day:"Schließen",learning_on:"Lernen ist an: Das Thermostat schreibt seinen Zeitplan aus den von Hand eingestellten Temperaturen um, ein hier gespeicherter Zeitplan ändert sich also.",turn_off_learning:"Lernen beim Speichern ausschalten",changed_on_thermostat:"Das Thermostat hat seinen Zeitplan geändert, während du ihn bearbeitet hast (Lernen, Drehring oder eine andere App).",load_theirs:"Zeitplan des Thermostats anzeigen",problems:"Vor dem Speichern beheben:",empty_day:"{day} hat keine Schaltpunkte: Füge einen hinzu oder kopiere einen anderen Tag hierher.",same_time:"{day} {time}: zwei Schaltpunkte zur selben Zeit.",out_of_range:"{day} {time}: Temperaturen müssen zwischen {min} und {max} liegen.",range_order:"{day} {time}: Die untere Temperatur muss unter der oberen liegen.",bad_time:"{day}: Ein Schaltpunkt hat keine gültige Uhrzeit.",error_not_a_thermostat:"{entity} ist kein Thermostat-Cloud-Thermostat.",error_not_loaded:"Thermostat Cloud läuft nicht. Prüfe die Integration.",error_unknown:"Etwas ist schiefgegangen: {message}",editor_entity:"Thermostat",editor_title:"Titel (optional)",hold:"Gehalten auf {temperature} bis {until}, danach wieder nach Zeitplan.",resume_schedule:"Zeitplan fortsetzen"};var j={card_name:"Thermostat schedule",card_description:"The weekly schedule of a Thermostat Cloud thermostat: see and edit its setpoints.",title:"{name} schedule",heat:"Heat",cool:"Cool",range:"Heat/cool",mode:"Schedule mode",no_entity:"Choose a thermostat in the card's settings.",loading:"Loading the schedule…",no_schedule:"The thermostat has not reported a schedule yet.",create_schedule:"Start a schedule",time:"Time",temperature:"Temperature",low:"Low",high:"High",carried_over:"carried over from the day before",add_setpoint:"Add setpoint",remove_setpoint:"Remove setpoint",copy_to:"Copy {day} to",copy:"Copy",all_days:"All days",save:"Save",discard:"Discard changes",saving:"Saving…",saved:"Saved. The thermostat gets the schedule as soon as it is connected.",edit_day:"Edit {day}",close_day:"Close",learning_on:"Learning is on: the thermostat rewrites its schedule as it learns from the temperatures set by hand, so a schedule saved here will drift.",turn_off_learning:"Turn learning off when saving",changed_on_thermostat:"The thermostat changed its schedule while you were editing (learning, the ring or another app).",load_theirs:"Show the thermostat's schedule",problems:"Fix these before saving:",empty_day:"{day} has no setpoints: add one or copy another day onto it.",same_time:"{day} {time}: two setpoints at the same time.",out_of_range:"{day} {time}: temperatures must be {min} to {max}.",range_order:"{day} {time}: the low temperature must be below the high one.",bad_time:"{day}: a setpoint has no valid time.",error_not_a_thermostat:"{entity} is not a Thermostat Cloud thermostat.",error_not_loaded:"Thermostat Cloud is not running. Check the integration.",error_unknown:"Something went wrong: {message}",editor_entity:"Thermostat",editor_title:"Title (optional)",hold:"Held at {temperature} until {until}, then back to the schedule.",resume_schedule:"Resume schedule"};var I1={card_name:"Programación del termostato",card_description:"La programación semanal de un termostato de Thermostat Cloud: consulta y edita sus consignas.",title:"Programación de {name}",heat:"Calor",cool:"Frío",range:"Calor/Frío",mode:"Modo de la programación",no_entity:"Elige un termostato en la configuración de la tarjeta.",loading:"Cargando la programación…",no_schedule:"El termostato aún no ha enviado ninguna programación.",create_schedule:"Crear una programación",time:"Hora",temperature:"Temperatura",low:"Mín.",high:"Máx.",carried_over:"viene del día anterior",add_setpoint:"Añadir consigna",remove_setpoint:"Eliminar consigna",copy_to:"Copiar {day} a",copy:"Copiar",all_days:"Todos los días",save:"Guardar",discard:"Descartar cambios",saving:"Guardando…",saved:"Guardado. El termostato recibirá la programación en cuanto esté conectado.",edit_day:"Editar {day}",close_day:"Cerrar",learning_on:"El aprendizaje está activado: el termostato reescribe su programación a partir de las temperaturas que ajustas a mano, así que una programación guardada aquí irá cambiando.",turn_off_learning:"Desactivar el aprendizaje al guardar",changed_on_thermostat:"El termostato ha cambiado su programación mientras la editabas (aprendizaje, el anillo u otra aplicación).",load_theirs:"Mostrar la programación del termostato",problems:"Corrige esto antes de guardar:",empty_day:"El {day} no tiene consignas: añade una o copia otro día en él.",same_time:"{day} {time}: dos consignas a la misma hora.",out_of_range:"{day} {time}: las temperaturas deben estar entre {min} y {max}.",range_order:"{day} {time}: la temperatura mínima debe ser inferior a la máxima.",bad_time:"{day}: una consigna no tiene una hora válida.",error_not_a_thermostat:"{entity} no es un termostato de Thermostat Cloud.",error_not_loaded:"Thermostat Cloud no está en funcionamiento. Revisa la integración.",error_unknown:"Algo ha salido mal: {message}",editor_entity:"Termostato",editor_title:"Título (opcional)",hold:"Retención a {temperature} hasta {until}; después vuelve a la programación.",resume_schedule:"Reanudar la programación"};var U1={card_name:"Planification du thermostat",card_description:"La planification hebdomadaire d'un thermostat Thermostat Cloud : consultez et modifiez ses consignes.",title:"Planification de {name}",heat:"Chauffage",cool:"Climatisation",range:"Chauffage/Climatisation",mode:"Mode de la planification",no_entity:"Choisissez un thermostat dans les paramètres de la carte.",loading:"Chargement de la planification…",no_schedule:"Le thermostat n'a pas encore transmis de planification.",create_schedule:"Créer une planification",time:"Heure",temperature:"Température",low:"Min.",high:"Max.",carried_over:"reprise de la veille",add_setpoint:"Ajouter une consigne",remove_setpoint:"Supprimer la consigne",copy_to:"Copier {day} vers",copy:"Copier",all_days:"Tous les jours",save:"Enregistrer",discard:"Annuler les modifications",saving:"Enregistrement…",saved:"Enregistré. Le thermostat reçoit la planification dès qu'il est connecté.",edit_day:"Modifier {day}",close_day:"Fermer",learning_on:"L'apprentissage est activé : le thermostat réécrit sa planification d'après les températures réglées à la main, une planification enregistrée ici va donc changer.",turn_off_learning:"Désactiver l'apprentissage à l'enregistrement",changed_on_thermostat:"Le thermostat a modifié sa planification pendant que vous la modifiiez (apprentissage, bague ou une autre application).",load_theirs:"Afficher la planification du thermostat",problems:"À corriger avant d'enregistrer :",empty_day:"Aucune consigne le {day} : ajoutez-en une ou copiez-y un autre jour.",same_time:"{day} {time} : deux consignes à la même heure.",out_of_range:"{day} {time} : les températures doivent être comprises entre {min} et {max}.",range_order:"{day} {time} : la température basse doit être inférieure à la haute.",bad_time:"{day} : une consigne n'a pas d'heure valide.",error_not_a_thermostat:"{entity} n'est pas un thermostat Thermostat Cloud.",error_not_loaded:"Thermostat Cloud ne fonctionne pas. Vérifiez l'intégration.",error_unknown:"Une erreur s'est produite : {message}",editor_entity:"Thermostat",editor_title:"Titre (facultatif)",hold:"Maintenu à {temperature} jusqu'à {until}, puis retour à la planification.",resume_schedule:"Reprendre la planification"};var G1={card_name:"Programmazione del termostato",card_description:"La programmazione settimanale di un termostato Thermostat Cloud: visualizza e modifica i suoi setpoint.",title:"Programmazione di {name}",heat:"Riscaldamento",cool:"Freddo",range:"Caldo/Freddo",mode:"Modalità della programmazione",no_entity:"Scegli un termostato nelle impostazioni della scheda.",loading:"Caricamento della programmazione…",no_schedule:"Il termostato non ha ancora comunicato una programmazione.",create_schedule:"Crea una programmazione",time:"Ora",temperature:"Temperatura",low:"Min.",high:"Max.",carried_over:"ripreso dal giorno precedente",add_setpoint:"Aggiungi setpoint",remove_setpoint:"Rimuovi setpoint",copy_to:"Copia {day} su",copy:"Copia",all_days:"Tutti i giorni",save:"Salva",discard:"Annulla le modifiche",saving:"Salvataggio…",saved:"Salvato. Il termostato riceverà la programmazione appena sarà connesso.",edit_day:"Modifica {day}",close_day:"Chiudi",learning_on:"L'apprendimento è attivo: il termostato riscrive la sua programmazione in base alle temperature impostate a mano, quindi una programmazione salvata qui cambierà.",turn_off_learning:"Disattiva l'apprendimento al salvataggio",changed_on_thermostat:"Il termostato ha cambiato la sua programmazione mentre la stavi modificando (apprendimento, la ghiera o un'altra app).",load_theirs:"Mostra la programmazione del termostato",problems:"Correggi prima di salvare:",empty_day:"Nessun setpoint per {day}: aggiungine uno o copia qui un altro giorno.",same_time:"{day} {time}: due setpoint alla stessa ora.",out_of_range:"{day} {time}: le temperature devono essere tra {min} e {max}.",range_order:"{day} {time}: la temperatura minima deve essere inferiore alla massima.",bad_time:"{day}: un setpoint non ha un orario valido.",error_not_a_thermostat:"{entity} non è un termostato Thermostat Cloud.",error_not_loaded:"Thermostat Cloud non è in esecuzione. Controlla l'integrazione.",error_unknown:"Qualcosa è andato storto: {message}",editor_entity:"Termostato",editor_title:"Titolo (facoltativo)",hold:"Mantenuto a {temperature} fino a {until}, poi di nuovo secondo la programmazione.",resume_schedule:"Riprendi la programmazione"};var Q1={card_name:"Thermostaatschema",card_description:"Het weekschema van een Thermostat Cloud-thermostaat: bekijk en wijzig de schakelmomenten.",title:"Schema {name}",heat:"Verwarmen",cool:"Koelen",range:"Verwarmen/koelen",mode:"Schemamodus",no_entity:"Kies een thermostaat in de instellingen van de kaart.",loading:"Schema wordt geladen…",no_schedule:"De thermostaat heeft nog geen schema doorgegeven.",create_schedule:"Schema aanmaken",time:"Tijd",temperature:"Temperatuur",low:"Min.",high:"Max.",carried_over:"overgenomen van de vorige dag",add_setpoint:"Schakelmoment toevoegen",remove_setpoint:"Schakelmoment verwijderen",copy_to:"{day} kopiëren naar",copy:"Kopiëren",all_days:"Alle dagen",save:"Bewaar",discard:"Wijzigingen verwerpen",saving:"Bewaren…",saved:"Bewaard. De thermostaat krijgt het schema zodra hij verbonden is.",edit_day:"{day} bewerken",close_day:"Sluiten",learning_on:"Leren staat aan: de thermostaat herschrijft zijn schema op basis van de temperaturen die je met de hand instelt, dus een schema dat je hier bewaart blijft niet zo.",turn_off_learning:"Leren uitzetten bij bewaren",changed_on_thermostat:"De thermostaat heeft zijn schema gewijzigd terwijl je het bewerkte (leren, de draairing of een andere app).",load_theirs:"Schema van de thermostaat tonen",problems:"Los dit op voordat je bewaart:",empty_day:"Geen schakelmomenten op {day}: voeg er een toe of kopieer een andere dag hierheen.",same_time:"{day} {time}: twee schakelmomenten op hetzelfde tijdstip.",out_of_range:"{day} {time}: temperaturen moeten tussen {min} en {max} liggen.",range_order:"{day} {time}: de lage temperatuur moet onder de hoge liggen.",bad_time:"{day}: een schakelmoment heeft geen geldige tijd.",error_not_a_thermostat:"{entity} is geen Thermostat Cloud-thermostaat.",error_not_loaded:"Thermostat Cloud draait niet. Controleer de integratie.",error_unknown:"Er is iets misgegaan: {message}",editor_entity:"Thermostaat",editor_title:"Titel (optioneel)",hold:"Vastgehouden op {temperature} tot {until}, daarna weer volgens schema.",resume_schedule:"Schema hervatten"};var z1={en:j,de:$1,es:I1,fr:U1,it:G1,nl:Q1};function h(M,C,H={}){let V=(M??"en").toLowerCase();return((z1[V]??z1[V.split("-")[0]]??j)[C]??j[C]).replace(/\{(\w+)\}/g,(e,i)=>i in H?String(H[i]):e)}var d1=["HEAT","COOL","RANGE"];var O={"°C":{min:4.5,max:32,step:.5},"°F":{min:40,max:90,step:1}};function j1(M){return M==="°F"?"°F":"°C"}function N(M,C){return C==="°C"?Math.round(M*10)/10:Math.round(M*9/5+32)}function q1(M,C){let H=C==="°C"?M:(M-32)*5/9;return Math.round(H*2)/2}function D(M,C){return typeof M=="number"&&Number.isFinite(M)?M:C}function K1(M,C){return d1.includes(M)?M:C}function Y1(M){let{ver:C,name:H,schedule_mode:V,days:L,...r}=M,e=K1(V,"HEAT"),i=[];for(let t=0;t<7;t++){let A=Object.values(L?.[String(t)]??{}).map(a=>{let{time:o,type:m,entry_type:n,temp:g,"temp-min":o2,"temp-max":a2,...d2}=a,x1=K1(m,e),I={time:D(o,0),type:x1,continuation:n==="continuation",extra:d2};return x1==="RANGE"?(I.low=D(o2,NaN),I.high=D(a2,NaN)):I.temp=D(g,NaN),I});i.push(W(A))}return{ver:D(C,1),name:H,mode:e,days:i,extra:r}}function W(M){return[...M].sort((C,H)=>C.time-H.time||Number(H.continuation)-Number(C.continuation))}function q(M){let C={};M.days.forEach((V,L)=>{let r=new Set(V.filter(t=>!t.continuation).map(t=>t.time)),e=W(V).filter(t=>!t.continuation||!r.has(t.time)),i={};e.forEach((t,A)=>{let a={...t.extra,time:t.time,type:t.type,entry_type:t.continuation?"continuation":"setpoint"};t.type==="RANGE"?(a["temp-min"]=t.low,a["temp-max"]=t.high):a.temp=t.temp,i[String(A)]=a}),C[String(L)]=i});let H={...M.extra,ver:M.ver,schedule_mode:M.mode,days:C};return M.name!==void 0&&(H.name=M.name),H}function X1(M){return{ver:2,mode:M,days:Array.from({length:7},()=>[E(M,25200,M==="COOL"?24:20),E(M,79200,M==="COOL"?27:17)]),extra:{}}}function E(M,C,H){if(M==="RANGE"){let V=Math.min(H,O["°C"].max-3);return{time:C,type:M,low:V,high:V+3,continuation:!1,extra:{}}}return{time:C,type:M,temp:H,continuation:!1,extra:{}}}function J1(M,C){let H=M.days.map(V=>V.map(L=>{if(L.type===C)return L;let r=L.type==="RANGE"?C==="COOL"?L.high:L.low:L.temp,e=E(C,L.time,r);if(C==="RANGE"&&L.type==="COOL"){let i=Math.max(r,O["°C"].min+3);e={...e,low:i-3,high:i}}return{...e,continuation:L.continuation,extra:L.extra}}));return{...M,mode:C,days:H}}function C2(M,C,H){let V=M.days.map(r=>r),L=M.days[C].filter(r=>!r.continuation);for(let r of H){if(r===C)continue;let e=M.days[r].filter(i=>i.continuation);V[r]=W([...e,...L.map(i=>({...i,extra:{...i.extra}}))])}return{...M,days:V}}function p1(M,C){let H=[],V=O[C],L=r=>{if(r===void 0||!Number.isFinite(r))return!1;let e=N(r,C);return e>=V.min&&e<=V.max&&r>=O["°C"].min&&r<=O["°C"].max};return M.days.forEach((r,e)=>{if(r.length===0){H.push({key:"empty_day",day:e});return}let i=new Set;for(let t of r.filter(A=>!A.continuation)){let{time:A}=t;if(!Number.isInteger(A)||A<0||A>=86400){H.push({key:"bad_time",day:e,time:A});continue}i.has(A)&&H.push({key:"same_time",day:e,time:A}),i.add(A),(t.type==="RANGE"?[t.low,t.high]:[t.temp]).every(L)?t.type==="RANGE"&&t.low>=t.high&&H.push({key:"range_order",day:e,time:A}):H.push({key:"out_of_range",day:e,time:A,min:V.min,max:V.max})}}),H}function H2(M){let C=(M+6)%7;return Array.from({length:7},(H,V)=>(C+V)%7)}var P2=["sunday","monday","tuesday","wednesday","thursday","friday","saturday"];function V2(M,C){let H=M?P2.indexOf(M):-1;if(H>=0)return H;try{let V=new Intl.Locale(C),L=V.getWeekInfo?.()??V.weekInfo;if(L)return L.firstDay%7}catch{}return 1}function Y(M,C){let H;try{H=new Intl.DateTimeFormat(M,{weekday:C,timeZone:"UTC"})}catch{H=new Intl.DateTimeFormat("en",{weekday:C,timeZone:"UTC"})}return Array.from({length:7},(V,L)=>H.format(Date.UTC(2024,0,1+L)))}function m1(M){let C=Math.floor(M/60),H=V=>String(V).padStart(2,"0");return`${H(Math.floor(C/60)%24)}:${H(C%60)}`}function L2(M){let C=/^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(M);if(!C)return NaN;let[H,V,L]=[C[1],C[2],C[3]??"0"].map(Number);return H>23||V>59||L>59?NaN:H*3600+V*60+L}function M2(M,C){let H=M.days[C].filter(L=>L.time>=0&&L.time<86400),V=[];if(H.length===0||H[0].time>0){let L=w2(M,C),r=H.length?H[0].time:86400;L&&V.push({start:0,end:r,entry:L,carried:!0})}return H.forEach((L,r)=>{let e=r+1<H.length?H[r+1].time:86400;e>L.time&&V.push({start:L.time,end:e,entry:L,carried:!1})}),V}function w2(M,C){for(let H=1;H<=7;H++){let V=M.days[(C-H+7)%7];if(V.length)return V[V.length-1]}}function n1(M){return JSON.stringify(M,(C,H)=>H&&typeof H=="object"&&!Array.isArray(H)?Object.fromEntries(Object.entries(H).sort(([V],[L])=>V<L?-1:V>L?1:0)):H)}var r2={HEAT:"heat",COOL:"cool",RANGE:"range"},F2=[0,6,12,18,24];function R2(M){return Object.values(M.entities??{}).find(H=>H.platform===c&&H.entity_id.startsWith("climate."))?.entity_id}var B=class extends v{constructor(){super(...arguments);this._copyTargets=new Set;this._turnOffLearning=!0;this._saving=!1;this._saved=!1}static getConfigElement(){return document.createElement(K)}static getStubConfig(H){return{type:`custom:${y}`,entity:R2(H)??""}}setConfig(H){if(!H||typeof H!="object")throw new Error("Invalid configuration");if(H.entity&&!H.entity.startsWith("climate."))throw new Error("entity must be a climate entity of Thermostat Cloud");this._config=H}getCardSize(){return 9}getGridOptions(){return{columns:12,min_columns:6,rows:"auto"}}connectedCallback(){super.connectedCallback(),this._subscribe()}disconnectedCallback(){super.disconnectedCallback(),this._unsubscribeNow()}shouldUpdate(H){if(H.size!==1||!H.has("hass"))return!0;let V=H.get("hass"),L=this.hass;if(!V||!L)return!0;let r=this._config?.entity;return V.connection!==L.connection||V.language!==L.language||V.locale!==L.locale||V.config!==L.config||r!==void 0&&V.states[r]!==L.states[r]}updated(H){(H.has("hass")||H.has("_config"))&&this._subscribe()}_subscribe(){let H=this._config?.entity,V=this.hass?.connection;if(!this.isConnected||!H||!V)return;let L=this._subscribedTo;L&&L.entity===H&&L.connection===V||(this._unsubscribeNow(),this._subscribedTo={entity:H,connection:V},this._message=void 0,this._base=this._week=this._theirs=void 0,this._error=void 0,this._unsubscribe=V.subscribeMessage(r=>this._received(r),{type:W1,entity_id:H}).catch(r=>{this._error=this._describe(r)}))}_unsubscribeNow(){let H=this._unsubscribe;this._unsubscribe=void 0,this._subscribedTo=void 0,H?.then(V=>V?.()).catch(()=>{})}_received(H){this._message=H;let V=H.schedule?Y1(H.schedule):void 0;!this._dirty||V&&this._week&&e2(V,this._week)?(this._base=V,this._week=V,this._theirs=void 0):(this._base=V,this._theirs=V)}get _dirty(){return this._week?!this._base||!e2(this._base,this._week):!1}get _language(){return this.hass?.locale?.language??this.hass?.language??"en"}_t(H,V){return h(this.hass?.language,H,V)}get _unit(){return j1(this.hass?.config.unit_system.temperature)}_temperature(H){return H===void 0||!Number.isFinite(H)?"–":`${N(H,this._unit).toLocaleString(this._language)} ${this._unit}`}_entryLabel(H){return H.type==="RANGE"?`${this._temperature(H.low)} – ${this._temperature(H.high)}`:this._temperature(H.temp)}_entryNumbers(H){let V=L=>L===void 0||!Number.isFinite(L)?"–":N(L,this._unit).toLocaleString(this._language);return H.type==="RANGE"?`${V(H.low)}–${V(H.high)}`:V(H.temp)}_hour(H){try{return new Date(Date.UTC(2024,0,1,H)).toLocaleTimeString(this._language,{hour:"numeric",timeZone:"UTC"})}catch{return String(H)}}_time(H){let V=new Date(Date.UTC(2024,0,1,0,0,H));try{return V.toLocaleTimeString(this._language,{hour:"numeric",minute:"2-digit",timeZone:"UTC"})}catch{return m1(H)}}render(){let H=this._config,V=H?.entity,r=(V?this.hass?.states[V]:void 0)?.attributes.friendly_name??V??"",e=H?.title||(V?this._t("title",{name:r}):this._t("card_name"));return d`
      <ha-card>
        <div class="header">
          <h2 class="title">${e}</h2>
          ${this._week?this._renderMode(this._week):p}
        </div>
        <div class="content">${this._renderBody(V)}</div>
      </ha-card>
    `}_renderBody(H){if(!H)return d`<p class="note">${this._t("no_entity")}</p>`;if(this._error&&!this._message)return d`<p class="message error" role="alert">${this._error}</p>`;if(!this._message)return d`<p class="note">${this._t("loading")}</p>`;let V=this._week;if(!V)return d`
        <p class="note">${this._t("no_schedule")}</p>
        <div class="actions">
          <button class="primary" @click=${()=>this._week=X1("HEAT")}>
            ${this._t("create_schedule")}
          </button>
        </div>
      `;let L=p1(V,this._unit),r=Y(this._language,"long"),e=Y(this._language,"short"),i=H2(V2(this.hass?.locale?.first_weekday,this._language));return d`
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
          </div>`:p}
      ${this._message.hold?this._renderHold(this._message.hold):p}
      ${this._theirs?d`<div class="message warning" role="status">
            <p>${this._t("changed_on_thermostat")}</p>
            <button @click=${this._loadTheirs}>${this._t("load_theirs")}</button>
          </div>`:p}
      <div class="week" role="list">
        ${i.map(t=>this._renderDay(V,t,r,e,i))}
        <div class="hours" aria-hidden="true">
          <span></span>
          <div class="scale">
            ${F2.map(t=>d`<span style="left:${t/24*100}%">${this._hour(t%24)}</span>`)}
          </div>
        </div>
      </div>
      ${L.length?this._renderProblems(L,r):p}
      ${this._error?d`<p class="message error" role="alert">${this._error}</p>`:p}
      ${this._saved&&!this._dirty?d`<p class="message ok" role="status">${this._t("saved")}</p>`:p}
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
    `}_renderHold(H){let V=H.target!==null?this._temperature(H.target):`${this._temperature(H.low??void 0)} – ${this._temperature(H.high??void 0)}`,L=H.until;try{L=new Date(H.until).toLocaleString(this._language,{weekday:"short",hour:"numeric",minute:"2-digit"})}catch{}return d`<div class="message hold" role="status">
      <p>${this._t("hold",{temperature:V,until:L})}</p>
      <button @click=${this._resumeSchedule}>${this._t("resume_schedule")}</button>
    </div>`}async _resumeSchedule(){let H=this._config?.entity;if(!(!this.hass||!H)){this._error=void 0;try{await this.hass.callService(c,"resume_schedule",{},{entity_id:H})}catch(V){this._error=this._describe(V)}}}_renderMode(H){return d`
      <label class="mode">
        <span class="visually-hidden">${this._t("mode")}</span>
        <select
          aria-label=${this._t("mode")}
          .value=${H.mode}
          @change=${V=>this._edit(J1(H,V.target.value))}
        >
          ${d1.map(V=>d`<option value=${V} ?selected=${V===H.mode}>
                ${this._t(r2[V])}
              </option>`)}
        </select>
      </label>
    `}_renderDay(H,V,L,r,e){let i=this._day===V,t=M2(H,V),[A,a]=_2(H);return d`
      <div class="day ${i?"open":""}" role="listitem">
        <button
          class="day-line"
          aria-expanded=${i?"true":"false"}
          aria-label=${this._t("edit_day",{day:L[V]})}
          @click=${()=>this._openDay(i?void 0:V)}
        >
          <span class="day-name" title=${L[V]}>${r[V]}</span>
          <span class="line">
            ${t.map(o=>{let m=D2(i2(o.entry),A,a);return d`<span
                  class="segment ${o.entry.type.toLowerCase()} ${o.carried?"carried":""} ${m<70?"pale":""}"
                  style="left:${(o.start/864).toFixed(3)}%;width:${((o.end-o.start)/864).toFixed(3)}%;--tc-share:${m}%"
                  title="${this._time(o.start)} ${this._entryLabel(o.entry)}"
                  >${o.carried?"":this._entryNumbers(o.entry)}</span
                >`})}
          </span>
        </button>
        ${i?this._renderDayEditor(H,V,L,e):p}
      </div>
    `}_renderDayEditor(H,V,L,r){let e=O[this._unit],i=H.days[V],t=(A,a,o,m)=>d`
      <label class="field">
        <span>${m}</span>
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
          ${t2(_1,this._t("close_day"),()=>this._openDay(void 0))}
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
                      .value=${Number.isFinite(A.time)?m1(A.time):""}
                      @change=${o=>this._setTime(V,a,o.target.value)}
                    />
                  </label>
                  ${A.type==="RANGE"?d`${t(A,a,"low",this._t("low"))}
                      ${t(A,a,"high",this._t("high"))}`:t(A,a,"temp",this._t(r2[A.type]))}
                  ${t2(E1,this._t("remove_setpoint"),()=>this._remove(V,a))}
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
            ${v1(D1)} ${this._t("copy")}
          </button>
        </fieldset>
      </div>
    `}_renderProblems(H,V){return d`
      <div class="message error" role="alert">
        <p>${this._t("problems")}</p>
        <ul>
          ${H.map(L=>{let r={day:V[L.day]};return"time"in L&&Number.isFinite(L.time)&&(r.time=this._time(L.time)),L.key==="out_of_range"&&(r.min=`${L.min} ${this._unit}`,r.max=`${L.max} ${this._unit}`),d`<li>${this._t(L.key,r)}</li>`})}
        </ul>
      </div>
    `}_edit(H){this._week=H,this._saved=!1,this._error=void 0}_editDay(H,V,L=!0){let r=this._week,e=[...r.days],i=V([...e[H]]);e[H]=L?W(i):i,this._edit({...r,days:e})}_openDay(H){this._day=H,this._copyTargets=new Set}_setTime(H,V,L){this._editDay(H,r=>(r[V]={...r[V],time:L2(L)},r))}_setTemperature(H,V,L,r){let e=r.trim()===""?NaN:Number(r);this._editDay(H,i=>(i[V]={...i[V],[L]:q1(e,this._unit)},i))}_remove(H,V){this._editDay(H,L=>L.filter((r,e)=>e!==V))}_add(H){let V=this._week,L=V.days[H].filter(t=>!t.continuation&&Number.isFinite(t.time)),r=L[L.length-1],e=r?Math.min(r.time+3600,23*3600):12*3600,i=r?r.type==="RANGE"?r.low:r.temp:20;this._editDay(H,t=>[...t,E(V.mode,e,Number.isFinite(i)?i:20)])}_toggleCopy(H,V){let L=new Set(this._copyTargets);V?L.add(H):L.delete(H),this._copyTargets=L}_selectAllCopy(H){this._copyTargets=new Set(Array.from({length:7},(V,L)=>L).filter(V=>V!==H))}_copy(H){this._edit(C2(this._week,H,this._copyTargets)),this._copyTargets=new Set}_discard(){this._week=this._base,this._theirs=void 0,this._error=void 0}_loadTheirs(){this._discard()}async _save(){let H=this._week,V=this._config?.entity;if(!H||!V||!this.hass||p1(H,this._unit).length)return;let L={schedule:q(H)};this._message?.learning&&(L.turn_off_learning=this._turnOffLearning),this._saving=!0,this._error=void 0;try{await this.hass.callService(c,"set_schedule",L,{entity_id:V}),this._base=H,this._theirs=void 0,this._saved=!0}catch(r){this._error=this._describe(r)}finally{this._saving=!1}}_describe(H){return H?.code==="not_a_thermostat"?this._t("error_not_a_thermostat",{entity:this._config?.entity??""}):H?.code==="not_loaded"?this._t("error_not_loaded"):H?.message||this._t("error_unknown",{message:String(H?.code??H)})}};B.properties={hass:{attribute:!1},_config:{state:!0},_message:{state:!0},_base:{state:!0},_week:{state:!0},_theirs:{state:!0},_day:{state:!0},_copyTargets:{state:!0},_turnOffLearning:{state:!0},_saving:{state:!0},_saved:{state:!0},_error:{state:!0}},B.styles=J`
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
      text-overflow: clip;
      color: #fff;
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
    .segment.pale {
      color: var(--primary-text-color);
    }
    .segment.carried {
      opacity: 0.5;
      border-inline-start: none;
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
  `;function i2(M){return M.type==="RANGE"?(M.low+M.high)/2:M.temp}function _2(M){let C=M.days.flat().map(i2).filter(Number.isFinite);return C.length?[Math.min(...C),Math.max(...C)]:[0,0]}function D2(M,C,H){return!Number.isFinite(M)||H<=C?100:Math.round(45+55*(M-C)/(H-C))}function e2(M,C){return n1(q(M))===n1(q(C))}function v1(M){return d`<svg viewBox="0 0 24 24" aria-hidden="true">${T1`<path d=${M}></path>`}</svg>`}function t2(M,C,H){return customElements.get("ha-icon-button")?d`<ha-icon-button .path=${M} .label=${C} @click=${H}></ha-icon-button>`:d`<button class="icon-button" aria-label=${C} title=${C} @click=${H}>
    ${v1(M)}
  </button>`}var E2=[{name:"entity",required:!0,selector:{entity:{filter:{integration:c,domain:"climate"}}}},{name:"title",selector:{text:{}}}],N2={entity:"editor_entity",title:"editor_title"},$=class extends v{setConfig(C){this._config=C}render(){return!this.hass||!this._config?p:d`
      <ha-form
        .hass=${this.hass}
        .data=${this._config}
        .schema=${E2}
        .computeLabel=${C=>h(this.hass?.language,N2[C.name]??"editor_entity")}
        @value-changed=${this._valueChanged}
      ></ha-form>
    `}_valueChanged(C){C.stopPropagation();let H={...this._config,...C.detail.value};H.title||delete H.title,this._config=H,this.dispatchEvent(new CustomEvent("config-changed",{detail:{config:H},bubbles:!0,composed:!0}))}};$.properties={hass:{attribute:!1},_config:{state:!0}};function A2(){if(customElements.get(y))return;customElements.define(y,B),customElements.define(K,$);let M=document.documentElement.lang||navigator.language;window.customCards=window.customCards??[],window.customCards.push({type:y,name:h(M,"card_name"),description:h(M,"card_description"),preview:!0,documentationURL:"https://github.com/thermostat-cloud/thermostat-cloud#the-thermostat-in-home-assistant"})}customElements.get("home-assistant")?A2():customElements.whenDefined("home-assistant").then(A2,()=>{});
