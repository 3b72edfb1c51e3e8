// The polkit rules' logic (deploy/polkit/*.rules) checked with mujs, polkitd's rules API stubbed, every rule loaded
// as polkitd loads them: `mujs Tests/Packaging/polkit-rule.js deploy/polkit/*.rules` (scripts/test).
var rules = [];
var polkit = {
    Result: { NO: "no", YES: "yes", AUTH_ADMIN: "auth_admin", NOT_HANDLED: null },
    addRule: function (rule) { rules.push(rule); },
    log: function () {}
};
for (var f = 0; f < scriptArgs.length; f++) load(scriptArgs[f]);

function decide(id, user, details) {
    var action = { id: id, lookup: function (key) { return details[key]; } };
    var subject = { user: user, isInGroup: function () { return false; } };
    for (var i = 0; i < rules.length; i++) {
        var result = rules[i](action, subject);
        if (result !== null && result !== undefined) return result;
    }
    return null;
}

var manage = "org.freedesktop.systemd1.manage-units";
var cases = [
    [manage, "booth", { unit: "media-heylook-1234\\x2dABCD.mount", verb: "stop" }, "yes"],
    [manage, "booth", { unit: "media-heylook-6a1f2c3e\\x2d4b5d\\x2d11ee.mount", verb: "stop" }, "yes"],
    [manage, "booth", { unit: "media-heylook-1234\\x2dABCD.mount", verb: "start" }, null],
    [manage, "booth", { unit: "media-heylook-1234\\x2dABCD.mount", verb: "restart" }, null],
    [manage, "booth", { unit: "media-heylook.mount", verb: "stop" }, null],
    [manage, "booth", { unit: "media-heylook\\x2dother-x.mount", verb: "stop" }, null],
    [manage, "booth", { unit: "media-other-1234.mount", verb: "stop" }, null],
    [manage, "booth", { unit: "media-heylook-1234.mount.service", verb: "stop" }, null],
    [manage, "booth", { unit: "heylook-booth.service", verb: "stop" }, null],
    [manage, "booth", { unit: "ssh.service", verb: "stop" }, null],
    [manage, "booth", { verb: "stop" }, null],
    [manage, "pi", { unit: "media-heylook-1234\\x2dABCD.mount", verb: "stop" }, null],
    ["org.freedesktop.systemd1.manage-unit-files", "booth", { unit: "media-heylook-1.mount", verb: "stop" }, null],
    ["org.freedesktop.login1.reboot", "booth", {}, null],
    // The gallery's user sets the clock through timedated (and turns network time off for that moment); nothing else.
    ["org.freedesktop.timedate1.set-time", "heylook-gallery", {}, "yes"],
    ["org.freedesktop.timedate1.set-ntp", "heylook-gallery", {}, "yes"],
    ["org.freedesktop.timedate1.set-timezone", "heylook-gallery", {}, null],
    ["org.freedesktop.timedate1.set-local-rtc", "heylook-gallery", {}, null],
    ["org.freedesktop.timedate1.set-time", "booth", {}, null],
    ["org.freedesktop.timedate1.set-time", "pi", {}, null],
    [manage, "heylook-gallery", { unit: "media-heylook-1234\\x2dABCD.mount", verb: "stop" }, null]
];
var failed = 0;
for (var i = 0; i < cases.length; i++) {
    var c = cases[i];
    var got = decide(c[0], c[1], c[2]);
    if (got !== c[3]) {
        print("FAIL: " + c[0] + " user " + c[1] + " " + JSON.stringify(c[2]) + ": " + got + ", expected " + c[3]);
        failed++;
    }
}
print("polkit rule: " + (cases.length - failed) + " of " + cases.length + " cases as expected");
if (failed > 0) throw new Error(failed + " case(s) failed");
