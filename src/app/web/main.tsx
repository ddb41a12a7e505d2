/** The app's entry: starts the first calls (boot.ts), then loads the app's code beside them. */
import './boot.js';
import './styles.css';

void Promise.all([import('react-dom/client'), import('./App.js')]).then(([{ createRoot }, { App }]) => {
  createRoot(document.getElementById('root')!).render(<App />);
});
