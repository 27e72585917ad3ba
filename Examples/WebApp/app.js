// app.js — the example app's page: it calls Swift by name, as any page on Keystone's runtime does.
document.getElementById('origin').textContent = location.origin;
document.getElementById('add').addEventListener('click', async function () {
  document.getElementById('sum').textContent = await dsBridge.invoke('math.slowAdd', [2, 3]);
});
document.getElementById('bytes').addEventListener('click', async function () {
  var bytes = await dsBridge.invoke('binary.make', 1024);
  document.getElementById('made').textContent = bytes.constructor.name + ' of ' + bytes.length + ' bytes';
});
