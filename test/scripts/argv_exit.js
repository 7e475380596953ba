// args: alpha beta
// exit: 4
// The JavaScript 'arguments' and quit(status) pass through the launcher.
console.log('arguments:', JSON.stringify(Array.from(arguments)));
quit(4);
