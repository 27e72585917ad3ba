// wvjb-setup.js — WebViewJavascriptBridge 6's page boilerplate, as pages written for it carry it:
// the bridge when it exists, else a queue of callbacks and a request for one. The request is
// https://__bridge_loaded__, or what the script tag's `data-bridge-request` names (older pages ask
// with wvjbscheme://__BRIDGE_LOADED__).
var wvjbBridgeRequest = (document.currentScript && document.currentScript.dataset.bridgeRequest) || 'https://__bridge_loaded__';
function setupWebViewJavascriptBridge(callback) {
  if (window.WebViewJavascriptBridge) { return callback(WebViewJavascriptBridge); }
  if (window.WVJBCallbacks) { return window.WVJBCallbacks.push(callback); }
  window.WVJBCallbacks = [callback];
  var WVJBIframe = document.createElement('iframe');
  WVJBIframe.style.display = 'none';
  WVJBIframe.src = wvjbBridgeRequest;
  document.documentElement.appendChild(WVJBIframe);
  setTimeout(function () { document.documentElement.removeChild(WVJBIframe); }, 0);
}
