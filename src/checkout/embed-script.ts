// GET /embed.js: the script a merchant's page includes to open a hosted checkout of this gateway
// in an overlay frame. It passes on to the page the one message the checkout's frame sends when
// the 3D step ends ({ type: 'gateway:checkout', successful, status, transaction_token }), and only
// when it comes from this gateway's origin and from that frame. The frame may show the checkout
// only on a page of an origin the workspace listed (the checkout's frame-ancestors), and the
// message goes to that origin only. It is a hint for the page: the merchant's server still reads
// the payment's final state (retrieve-payment or the webhook) before it ships anything.
import type { IncomingMessage, ServerResponse } from 'node:http';

const SOURCE = `(function(){
  'use strict';
  var script=document.currentScript;
  var gateway=new URL(script&&script.src?script.src:location.href).origin;
  var MESSAGE='gateway:checkout';
  function open(url,options){
    options=options||{};
    var target=new URL(url,gateway);
    if(target.origin!==gateway)throw new Error('GatewayCheckout.open: the checkout address must be on '+gateway);
    var overlay=document.createElement('div');
    overlay.setAttribute('data-gateway-checkout','');
    overlay.style.cssText='position:fixed;inset:0;z-index:2147483647;background:rgba(16,24,40,.6);display:flex;align-items:center;justify-content:center;padding:16px';
    var box=document.createElement('div');
    box.setAttribute('role','dialog');box.setAttribute('aria-modal','true');box.setAttribute('aria-label',options.title||'Checkout');
    box.style.cssText='position:relative;width:100%;max-width:480px;height:100%;max-height:760px;background:#fff;border-radius:12px;overflow:hidden';
    var frame=document.createElement('iframe');
    frame.src=target.href;frame.title=options.title||'Checkout';
    frame.style.cssText='border:0;width:100%;height:100%';
    var close=document.createElement('button');
    close.type='button';close.textContent='\\u00d7';close.setAttribute('aria-label',options.closeLabel||'Close');
    close.style.cssText='position:absolute;top:8px;right:8px;width:36px;height:36px;border-radius:18px;border:0;background:#fff;color:#1f2430;font:24px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 1px 3px rgba(0,0,0,.3)';
    function onMessage(event){
      if(event.origin!==gateway||event.source!==frame.contentWindow)return;
      var data=event.data;
      if(!data||data.type!==MESSAGE)return;
      if(typeof options.onResult==='function')options.onResult({successful:data.successful===true,status:String(data.status),transaction_token:String(data.transaction_token)});
    }
    function shut(){
      window.removeEventListener('message',onMessage);
      if(overlay.parentNode)overlay.parentNode.removeChild(overlay);
      if(typeof options.onClose==='function')options.onClose();
    }
    close.addEventListener('click',shut);
    window.addEventListener('message',onMessage);
    box.appendChild(frame);box.appendChild(close);overlay.appendChild(box);
    document.body.appendChild(overlay);
    return {close:shut,frame:frame};
  }
  window.GatewayCheckout={open:open};
})();
`;

export function sendEmbedScript(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300' });
  res.end(SOURCE);
}
