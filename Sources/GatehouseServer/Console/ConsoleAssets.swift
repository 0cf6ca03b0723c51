import Foundation
import GatehouseHTTP

/// The console's style sheet and its one small script, served from the binary (no CDN, no
/// build step). The script only adds comforts: every page works without it.
enum ConsoleAssets {
    static func register(on site: RouteGroup) {
        site.get("/assets/console.css", .inline { _, _ in asset(css, type: "text/css; charset=utf-8") })
        site.get("/assets/console.js", .inline { _, _ in asset(script, type: "text/javascript; charset=utf-8") })
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(headers: ["Content-Type": type, "Cache-Control": "public, max-age=3600"], body: .bytes(Data(text.utf8)))
    }

    /// Asks before a form marked `data-confirm` is sent, copies a shown-once secret on a click,
    /// and, where the browser has passkeys, shows the passkey forms and answers their options
    /// with the platform's authenticator before they are sent.
    static let script = """
        "use strict";
        var passkeys = !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON && PublicKeyCredential.parseRequestOptionsFromJSON);
        if (passkeys) { document.querySelectorAll(".passkey[hidden]").forEach(function (shown) { shown.hidden = false; }); }
        document.addEventListener("submit", function (event) {
          var form = event.target;
          var message = form.getAttribute("data-confirm");
          if (message && !window.confirm(message)) { event.preventDefault(); return; }
          var create = form.getAttribute("data-passkey-create"), get = form.getAttribute("data-passkey-get");
          if ((!create && !get) || form.hasAttribute("data-answered") || !passkeys) { return; }
          event.preventDefault();
          var field = form.querySelector(create ? "input[name=credential]" : "input[name=assertion]");
          var asked = create
            ? navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(JSON.parse(create)) })
            : navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(JSON.parse(get)) });
          asked.then(function (credential) {
            field.value = JSON.stringify(credential.toJSON());
            form.setAttribute("data-answered", "");
            form.submit();
          }, function (error) { window.alert("The passkey was not used: " + error.message); });
        });
        document.addEventListener("click", function (event) {
          var target = event.target;
          if (target && target.hasAttribute && target.hasAttribute("data-copy") && navigator.clipboard) {
            navigator.clipboard.writeText(target.textContent);
            target.setAttribute("data-copied", "");
          }
        });

        """

    static let css = """
        :root { color-scheme: light dark; --accent: #2458c6; --muted: #6b7280; --line: #d1d5db; --bad: #b42318; --good: #067647; }
        * { box-sizing: border-box; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0; }
        header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 8px; padding: 8px 16px; border-bottom: 1px solid var(--line); }
        header ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0; padding: 0; }
        header a[aria-current] { font-weight: 600; text-decoration: underline; }
        .who form { display: inline; }
        main { padding: 16px; max-width: 1200px; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
        .skip { position: absolute; left: -10000px; top: 0; }
        .skip:focus { left: 8px; top: 8px; padding: 4px 8px; background: Canvas; z-index: 1; }
        td form { margin: 0; }
        form { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
        label { display: flex; flex-direction: column; font-size: 13px; gap: 2px; }
        input, select, button { font: inherit; padding: 4px 8px; }
        button.link { background: none; border: none; color: var(--accent); text-decoration: underline; cursor: pointer; padding: 0; }
        form.sign-in { flex-direction: column; align-items: stretch; max-width: 320px; }
        .facts { display: flex; flex-wrap: wrap; gap: 16px 32px; }
        .facts dt { font-size: 13px; color: var(--muted); }
        .facts dd { margin: 0; font-size: 20px; }
        .notice { border-left: 4px solid var(--good); padding: 4px 8px; }
        .problem { border-left: 4px solid var(--bad); padding: 4px 8px; }
        .muted, .empty { color: var(--muted); }
        .secret { font-family: ui-monospace, monospace; font-size: 16px; padding: 4px 8px; border: 1px dashed var(--line); user-select: all; }
        svg.chart { width: 100%; max-width: 900px; height: auto; }
        svg.chart .grid { stroke: var(--line); stroke-width: 1; }
        svg.chart text { font-size: 11px; fill: currentColor; }
        svg .sent { fill: #2458c6; } svg .verified { fill: #12b76a; } svg .blocked { fill: #d92d20; } svg .spend { fill: #7a5af8; } svg .runs { fill: #f79009; }
        svg.meter { width: 100px; height: 8px; vertical-align: middle; }
        svg.meter .track { fill: var(--line); } svg.meter .fill { fill: #12b76a; }
        figure.qr svg { background: #fff; }

        """
}
