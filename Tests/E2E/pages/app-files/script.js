window.fromAppScript = 42;
