"""The page of `GET /` (`travel.serve`): type a request, see its DEPART /
ARRIVEE / VIA entities highlighted by displaCy and the trip below. (A Python
string rather than an .html file, so that it ships with the package without
package data.)"""

PAGE = """<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Travel order resolver</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  form { display: flex; gap: .5rem; }
  input[type=text] { flex: 1; font-size: 1.1rem; padding: .5rem; }
  button { font-size: 1.1rem; padding: .5rem 1rem; }
  #entities { margin-top: 1.5rem; font-size: 1.2rem; min-height: 2rem; }
  #trip-row { margin-top: 1rem; font-size: 1.2rem; }
  #trip { font-weight: 600; }
  #trip.invalid { color: #a33; }
  #error { color: #a33; margin-top: .5rem; }
  .muted { color: #777; font-size: .9rem; }
</style>
</head>
<body>
<h1>Travel order resolver</h1>
<p class="muted">A French travel request, e.g. <em>Je veux aller de Marseille à Paris en passant par Lyon</em>.</p>
<form id="form">
  <input id="text" type="text" name="text" autocomplete="off" autofocus placeholder="de Marseille à Paris">
  <button id="go" type="submit">Resolve</button>
</form>
<div id="entities"></div>
<div id="trip-row" hidden>Trip: <span id="trip"></span></div>
<div id="error"></div>
<script>
const form = document.getElementById("form");
const show = (id, text) => { document.getElementById(id).textContent = text; };
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = document.getElementById("text").value;
  show("error", "");
  let answer;
  try {
    const response = await fetch("/resolve", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({text: text, render: true}),
    });
    answer = await response.json();
    if (!response.ok) { show("error", answer.error || response.statusText); return; }
  } catch (e) {
    show("error", String(e));
    return;
  }
  // displaCy's markup: the text is escaped by displaCy.
  document.getElementById("entities").innerHTML = answer.html || "";
  const trip = document.getElementById("trip");
  trip.className = answer.valid ? "valid" : "invalid";
  trip.textContent = answer.valid ? answer.places.join(" \\u2192 ") : "INVALID";
  trip.dataset.places = JSON.stringify(answer.places);
  document.getElementById("trip-row").hidden = false;
  if (answer.error) show("error", answer.error);
  trip.dataset.done = "1";
});
</script>
</body>
</html>
"""
