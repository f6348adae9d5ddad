/**
 * Electron bootstrap: one locked-down window, the embedded engine, the IPC handlers.
 * Everything the window can ask for goes through the IPC contract (common/ipc-contract.ts).
 */
import { app, BrowserWindow, dialog, Menu, nativeTheme, Notification, protocol, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, APP_URL as PACKAGED_APP_URL, serveAppRequest } from './app-protocol.js';
import { openAppEngine } from './open-app-engine.js';
import { APP_EVENT_CHANNEL } from '../../common/tasks.js';
import { createAppContext } from './app-context.js';
import { createIpcHandlers } from './ipc-handlers.js';
import { handleAll } from './trusted-ipc.js';
import { isTrustedSender } from './trusted-sender.js';
import { stopWatchFolders } from './handlers/watch-folders.js';
import { setWatchFolderDesktop } from './handlers/watch-folders-desktop.js';
import { resumeServiceChoice } from './handlers/settings-remote.js';
import { buildMenuTemplate, pageCommandIds, type ThemeSource } from './app-menu.js';
import { menuLabels } from './menu-labels.js';
import type { CommandId } from '../../common/commands.js';
import { uiLocaleOf, type UiLocale } from '../../common/ui-locales.js';

// electron-vite sets ELECTRON_RENDERER_URL to its dev server in `electron-vite dev` only.
// Otherwise the renderer is served by the app: protocol (app-protocol.ts), never from file://.
const APP_URL = process.env['ELECTRON_RENDERER_URL'] ?? PACKAGED_APP_URL;
const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));
// A sandboxed preload runs as a classic script, hence CommonJS (see electron.vite.config.ts).
const PRELOAD_PATH = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));

let mainWindow: BrowserWindow | null = null;

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Proofdesk',
    show: false,
    webPreferences: {
      preload: PRELOAD_PATH,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      // A middle click on a link would ask for a new window (denied below anyway): not even that.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => window.show());
  // The window is the app's page and nothing else: no popups, no navigating away.
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (!isTrustedSender(url, APP_URL)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(APP_URL);
  return window;
}

// Must happen before the app is ready: a privileged scheme cannot be added later.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);

async function main(): Promise<void> {
  await app.whenReady();
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, { root: RENDERER_DIR }));

  // Camera, notifications, clipboard, ...: the app asks for none, so none is granted.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const { engine, partner, issuingOff, keyStore, keyLock, startIssuing } = await openAppEngine();
  if (issuingOff) console.warn(`Issuing is off: ${issuingOff}`);
  // Closing saves the local chain's state: hold the quit until it is done.
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    // The watch folders' ingesters finish or journal their work first, then the engine closes.
    void stopWatchFolders()
      .then(() => context.close())
      .then(() => engine.close())
      .finally(() => {
        closed = true;
        app.quit();
      });
  });

  // The application menu, from the command table: a click on a command the page carries out
  // is sent to the page as a `command` event (to this window only, never to a bridge client).
  // It speaks the OS language until the page says which one it speaks (app:uiLocale), and is
  // rebuilt then, keeping what is greyed out and the theme chosen.
  let theme: ThemeSource = 'system';
  let enabledNow: readonly CommandId[] | null = null;
  const buildAppMenu = (locale: UiLocale) => {
    const template = buildMenuTemplate({
      mac: process.platform === 'darwin',
      labels: menuLabels(locale),
      theme,
      send: (command) => {
        const contents = mainWindow?.webContents;
        if (contents && !contents.isDestroyed()) contents.send(APP_EVENT_CHANNEL, { type: 'command', command });
      },
      setTheme: (next) => {
        theme = next;
        nativeTheme.themeSource = next;
      },
    });
    const menu = Menu.buildFromTemplate(template);
    Menu.setApplicationMenu(menu);
    return { menu, pageCommands: pageCommandIds(template) };
  };
  let appMenu = buildAppMenu(uiLocaleOf([app.getLocale()]));
  const setEnabled = (enabled: readonly CommandId[]) => {
    enabledNow = enabled;
    for (const id of appMenu.pageCommands) {
      const item = appMenu.menu.getMenuItemById(id);
      if (item) item.enabled = enabled.includes(id);
    }
  };
  let menuLocale: UiLocale | null = null;
  /** The words of the native dialogs, in the language of the menu. */
  const nativeWords = () => menuLabels(menuLocale ?? uiLocaleOf([app.getLocale()]));

  const context = createAppContext({
    osLocale: app.getLocale(),
    // The page asks (app:notify) when background work ends while the window is in the background.
    showInFolder: (path) => shell.showItemInFolder(path),
    notify: ({ title, body }) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      notification.on('click', () => {
        mainWindow?.show();
        mainWindow?.focus();
      });
      notification.show();
    },
    menu: {
      setEnabled,
      // A menu item's click runs its role on the window given (Electron's MenuItem wraps it).
      run: (command) => {
        if (mainWindow) appMenu.menu.getMenuItemById(command)?.click({}, mainWindow, mainWindow.webContents);
      },
      setLocale: (locale) => {
        if (locale === menuLocale) return;
        menuLocale = locale;
        appMenu = buildAppMenu(locale);
        if (enabledNow) setEnabled(enabledNow);
      },
    },
    engine,
    partner,
    issuingOff,
    keyStore,
    // Without a keychain the app asks for the encrypted keys file's passphrase.
    ...(keyLock ? { keyLock } : {}),
    ...(startIssuing ? { onKeysUnlocked: startIssuing } : {}),
    chooseFolder: async (title) => {
      const options = { title, properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] };
      const chosen = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    },
    // Key backup and restore ask where with the OS dialogs, never a typed path.
    chooseFile: async ({ kind, title, defaultName, extensions, filterName }) => {
      const words = nativeWords();
      const filters = extensions ? [{ name: words.native(filterName ?? 'native.filter.keyBackup'), extensions }] : [];
      if (kind === 'save') {
        const options = { title: words.native(title), defaultPath: defaultName, filters };
        const chosen = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
        return chosen.canceled ? null : (chosen.filePath ?? null);
      }
      const options = { title: words.native(title), filters, properties: ['openFile'] as 'openFile'[] };
      const chosen = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    },
  });
  await resumeServiceChoice(context); // a remote connection in use stays in use
  // The file manager, for the Watch folders view.
  setWatchFolderDesktop({ openPath: (path) => shell.openPath(path) });
  handleAll(createIpcHandlers(context), { webContents: () => mainWindow?.webContents ?? null, appUrl: APP_URL });
  // The one event channel: main → the window's page only, never another frame.
  context.events.subscribe((event) => {
    const contents = mainWindow?.webContents;
    if (contents && !contents.isDestroyed()) contents.send(APP_EVENT_CHANNEL, event);
  });

  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

main().catch((error: unknown) => {
  dialog.showErrorBox('Proofdesk could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
});
