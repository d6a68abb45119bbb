// Renderer entry: connect to the backend (IPC or HTTP), then mount the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connect } from './client/connect';
import './styles.css';

const connection = connect();
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html lacks #root');
createRoot(rootElement).render(
  <StrictMode>
    {connection.client ? (
      <App client={connection.client} />
    ) : (
      <main className="empty-state" role="alert">
        <h1>Skill Curator</h1>
        <p>{connection.problem}</p>
      </main>
    )}
  </StrictMode>,
);
